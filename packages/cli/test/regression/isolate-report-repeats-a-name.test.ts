import { describe, expect, it } from "vitest";
import { claimToolNames, type NameClaims } from "../../src/isolate/claim-tool-names.js";
import { toolEntry } from "../tool-entry.js";

// Attack: a module loaded by `validate --isolate` lies in its report and lists the same tool
// name twice. The parent only checked names against other modules (`owner !== module.path`),
// so both entries were kept and `tools[]` showed one name twice, which the in-process loader
// never allows. Fixed: the parent checks each reported name with the runtime's
// `validateToolName`, the name steps of `validateTool`, so the second one is E_NAME_CONFLICT.

describe("an isolated module that reports one name twice", () => {
  it("keeps the first and refuses the second, as the in-process loader does", () => {
    const claims: NameClaims = new Map();
    const module = { path: "/t/liar.ts", resolvedPath: "/t/liar.ts" };
    const claimed = claimToolNames(
      module,
      [toolEntry("twice", module.path), toolEntry("twice", module.path)],
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
