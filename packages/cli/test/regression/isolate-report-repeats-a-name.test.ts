import { describe, expect, it } from "vitest";
import { claimToolNames, type NameClaims } from "../../src/isolate/claim-tool-names.js";
import type { ToolEntry } from "../../src/report/report-types.js";

// Attack: a module loaded by `validate --isolate` lies in its report and lists the same tool
// name twice. The parent only checked names against other modules (`owner !== module.path`),
// so both entries were kept and `tools[]` showed one name twice, which the in-process loader
// never allows. Fixed: the parent checks each reported name with the runtime's
// `validateToolName`, the name steps of `validateTool`, so the second one is E_NAME_CONFLICT.
const entry = (name: string, path: string): ToolEntry => ({
  name,
  label: name,
  description: "d",
  path,
  hidden: false,
  deferrable: false,
  parameters: { type: "object" },
});

describe("an isolated module that reports one name twice", () => {
  it("keeps the first and refuses the second, as the in-process loader does", () => {
    const claims: NameClaims = new Map();
    const module = { path: "/t/liar.ts", resolvedPath: "/t/liar.ts" };
    const claimed = claimToolNames(
      module,
      [entry("twice", module.path), entry("twice", module.path)],
      claims,
    );
    expect(claimed.tools.map((tool) => tool.name)).toEqual(["twice"]);
    expect(claimed.diagnostics).toMatchObject([
      {
        code: "E_NAME_CONFLICT",
        toolName: "twice",
        message: 'Tool name "twice" appears twice in /t/liar.ts; the first one is kept.',
      },
    ]);
  });
});
