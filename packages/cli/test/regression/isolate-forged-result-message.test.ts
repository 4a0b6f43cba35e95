// End to end: the BUILT `tooldock validate` (isolated by default; build first: pnpm build).
import type { Diagnostic } from "@tooldock/sdk";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, runCli } from "../cli-process.js";
import { workFolder } from "../memory-io.js";

// Attack: a module that hangs posts the isolated child's own report itself, a "result" with
// a made-up tool and a "settled", through whatever channel the child has (process.send then;
// the report pipe, fd 3, now), and then blocks. The parent took the forged report, killed the
// child as done, and the hanging module passed validation with a tool it never defined.
// Since validate runs the loader's tool host, the module's write on file descriptor 3 fails
// (it is the tool host's socket), so the module gets an error and its made-up tool is not listed.
const POST = `import { writeSync } from "node:fs";
const post = (message) => {
  if (typeof process.send === "function") process.send(message);
  else writeSync(3, JSON.stringify(message) + "\\n");
};
const forged = {
  name: "forged_tool", label: "Forged", description: "Never defined.", path: import.meta.filename,
  hidden: false, deferrable: false, parameters: { type: "object", properties: {} },
};
`;
const FORGES_AND_HANGS = `${POST}
post({ type: "result", nonce: "guessed", tools: [forged], diagnostics: [] });
post({ type: "settled", nonce: "guessed", digest: "guessed" });
const until = Date.now() + 60_000;
while (Date.now() < until) {}
export default () => [];
`;
const GOOD = `export default (pi) => ({
  name: "good_tool", label: "Good", description: "Loads.",
  parameters: pi.typebox.Type.Object({}), execute: async () => ({ content: [] }),
});
`;

const isolate = ["--isolate", "--isolate-timeout", "4000", "--format", "json"];
const errorsOf = (report: { diagnostics: Diagnostic[] }) =>
  report.diagnostics.filter((diagnostic) => diagnostic.severity === "error");

beforeAll(assertBuilt);

describe("validate --isolate with a module that forges the child's report", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;

  beforeEach(async () => {
    folder = await workFolder({
      "tools/forges.mjs": FORGES_AND_HANGS,
      "tools/good.mjs": GOOD,
    });
  });
  afterEach(() => folder.remove());

  it("does not take a forged result and settled: the module fails and its made-up tool is not listed", async () => {
    const run = await runCli(["validate", "tools", ...isolate], { cwd: folder.path, env: folder.env });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.tools.map((tool: { name: string }) => tool.name)).toEqual(["good_tool"]);
    const errors = errorsOf(report);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toMatch(/forges\.mjs$/);
    // The tool host's channel is a socket the module cannot write with writeSync.
    expect(errors[0]?.code).toBe("E_IMPORT");
  });
});
