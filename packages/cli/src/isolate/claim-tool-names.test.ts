import { describe, expect, it } from "vitest";
import { toolEntry } from "../../test/tool-entry.js";
import { claimToolNames, type NameClaims } from "./claim-tool-names.js";

describe("claimToolNames", () => {
  it("lets the first module keep a name and reports the later one, naming both files", () => {
    const claims: NameClaims = new Map();
    const first = { path: "/t/a.ts", resolvedPath: "/t/a.ts" };
    const second = { path: "/t/b.ts", resolvedPath: "/real/b.ts" };
    expect(
      claimToolNames(first, [toolEntry("x", first.path)], claims).tools.map((entry) => entry.name),
    ).toEqual(["x"]);
    const later = claimToolNames(second, [toolEntry("x", second.path), toolEntry("y", second.path)], claims);
    expect(later.tools.map((entry) => entry.name)).toEqual(["y"]);
    expect(later.diagnostics).toEqual([
      {
        code: "E_NAME_CONFLICT",
        severity: "error",
        message:
          'Tool name "x" from /t/b.ts is already taken by /t/a.ts; the first to claim a name keeps it.',
        path: "/t/b.ts",
        resolvedPath: "/real/b.ts",
        toolName: "x",
        hint: "Rename one of the two tools, or remove one of them (for modules: from the tool paths).",
      },
    ]);
  });

  it.each(["resolve", "ast_edit", "1bad"])(
    "refuses %s, whatever the child reported, before it can claim anything",
    (name) => {
      const claims: NameClaims = new Map();
      const module = { path: "/t/evil.ts", resolvedPath: "/t/evil.ts" };
      const claimed = claimToolNames(
        module,
        [toolEntry(name, module.path), toolEntry("fine", module.path)],
        claims,
      );
      expect(claimed.tools.map((entry) => entry.name)).toEqual(["fine"]);
      expect(claimed.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.toolName])).toEqual([
        ["E_NAME_INVALID", name],
      ]);
      expect(claims.has(name)).toBe(false);
    },
  );
});
