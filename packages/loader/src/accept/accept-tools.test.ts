import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { acceptTools, type NameClaims } from "./accept-tools.js";

const tool = (name: string) => ({
  name,
  label: name,
  description: `The ${name} tool.`,
  parameters: Type.Object({}),
  execute: async () => ({ content: [] }),
});
const module = (path: string) => ({ path, resolvedPath: path });

describe("acceptTools", () => {
  it("keeps the first of two same-named tools, within a module and across modules", () => {
    const claims: NameClaims = new Map();
    const first = acceptTools(module("/t/a.ts"), [tool("x"), tool("x")], new Set(), claims);
    expect(first.tools).toHaveLength(1);
    expect(first.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      'Tool name "x" appears twice in /t/a.ts; the first one is kept.',
    ]);
    const second = acceptTools(module("/t/b.ts"), [tool("x"), tool("y")], new Set(), claims);
    expect(second.tools.map((accepted) => accepted.name)).toEqual(["y"]);
    expect(second.diagnostics[0]).toMatchObject({
      code: "E_NAME_CONFLICT",
      toolName: "x",
      message: 'Tool name "x" from /t/b.ts is already taken by /t/a.ts; the first to claim a name keeps it.',
    });
  });

  it("does not let an invalid entry claim a name", () => {
    const claims: NameClaims = new Map();
    const invalid = { ...tool("z"), parameters: { type: "object" } };
    acceptTools(module("/t/a.ts"), [invalid], new Set(), claims);
    expect(claims.has("z")).toBe(false);
    expect(acceptTools(module("/t/b.ts"), [tool("z")], new Set(), claims).tools).toHaveLength(1);
  });
});
