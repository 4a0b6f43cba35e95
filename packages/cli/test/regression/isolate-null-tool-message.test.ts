// End to end: the BUILT `tooldock validate` (isolated by default; build first: pnpm build).
import type { Diagnostic } from "@tooldock/sdk";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, runCli } from "../cli-process.js";
import { workFolder } from "../memory-io.js";

// Attack: a module posts a report whose shape is wrong (`tools: [null]`) through the child's
// channel. The parent used it as it came and crashed ("internal error", exit 2, no report).
// With the loader's tool host the write on its socket fails; each module is still an error.
const malformed = (message: string) => `import { writeSync } from "node:fs";
const message = ${message};
if (typeof process.send === "function") process.send(message);
else writeSync(3, JSON.stringify(message) + "\\n");
export default () => [];
`;
const GOOD = `export default (pi) => ({
  name: "good_tool", label: "Good", description: "Loads.",
  parameters: pi.typebox.Type.Object({}), execute: async () => ({ content: [] }),
});
`;

beforeAll(assertBuilt);

describe("validate --isolate with malformed report messages", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;

  beforeEach(async () => {
    folder = await workFolder({
      "tools/a-null-tool.mjs": malformed(`{ type: "result", tools: [null], diagnostics: [] }`),
      "tools/b-bad-fields.mjs": malformed(
        `{ type: "result", tools: [{ name: 1, parameters: "x" }], diagnostics: [null, { code: "E_NOPE" }] }`,
      ),
      "tools/c-not-an-object.mjs": malformed(`[null, "result"]`),
      "tools/d-good.mjs": GOOD,
    });
  });
  afterEach(() => folder.remove());

  it("reports each such module as an error and still reports the others", async () => {
    const run = await runCli(
      ["validate", "tools", "--isolate", "--isolate-timeout", "4000", "--format", "json"],
      {
        cwd: folder.path,
        env: folder.env,
      },
    );
    expect(run.stderr).not.toContain("internal error");
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.tools.map((tool: { name: string }) => tool.name)).toEqual(["good_tool"]);
    const errors = (report.diagnostics as Diagnostic[]).filter(
      (diagnostic) => diagnostic.severity === "error",
    );
    expect(errors.map((diagnostic) => diagnostic.path.split("/").at(-1)).sort()).toEqual([
      "a-null-tool.mjs",
      "b-bad-fields.mjs",
      "c-not-an-object.mjs",
    ]);
    for (const error of errors) expect(error.code).toBe("E_IMPORT");
  });
});
