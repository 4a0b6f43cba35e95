// End to end: the BUILT `tooldock validate` (isolated by default; build first: pnpm build).
import type { Diagnostic } from "@tooldock/sdk";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, runCli } from "../cli-process.js";
import { workFolder } from "../memory-io.js";

// Attack: a module sends 40 messages of 30 MB each through the isolated child's channel. The
// parent read and parsed every one of them and grew to 1.5 GB. Since validate runs the loader's
// tool host (which stops one past 64 MiB a line), the write on its socket fails: the module is
// an error, and the CLI gets through on a small heap.
const FLOODS = `import { writeSync } from "node:fs";
const pad = "x".repeat(30 * 1024 * 1024);
for (let index = 0; index < 40; index += 1) {
  const message = { type: "noise", index, pad };
  if (typeof process.send === "function") process.send(message);
  else writeSync(3, JSON.stringify(message) + "\\n");
}
export default () => [];
`;

beforeAll(assertBuilt);

describe("validate --isolate with a module that floods the child's channel", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;

  beforeEach(async () => {
    folder = await workFolder({ "tools/floods.mjs": FLOODS });
  });
  afterEach(() => folder.remove());

  it("kills the child past the cap and reports it, on a 96 MB parent heap", async () => {
    // The built CLI with a small heap of its own: the parent must get through on it.
    const run = await runCli(
      ["validate", "tools", "--isolate", "--isolate-timeout", "20000", "--format", "json"],
      { cwd: folder.path, env: folder.env, nodeArgs: ["--max-old-space-size=96"] },
    );
    expect(run.stderr).not.toContain("heap out of memory");
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    const errors = (report.diagnostics as Diagnostic[]).filter(
      (diagnostic) => diagnostic.severity === "error",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toMatch(/floods\.mjs$/);
  });
});
