// Found by a bug hunt: `tooldock validate pkg2`, a package whose manifest is
// `"tooldock": { "tools": [] }`, printed E_NOTHING_TO_VALIDATE with the hint "The warnings
// above say what was skipped", but the W_NO_TOOLS warning came below it: errors are printed
// first. Fixed: the hint names the warnings by code instead of by place, which holds in the
// pretty report (errors first), in JSON and in JUnit.
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

describe("E_NOTHING_TO_VALIDATE with the warnings that say what was skipped", () => {
  it("names the warnings by code, printed after it, and points at no place", async () => {
    const dir = await tempDir({
      "pkg2/package.json": JSON.stringify({ name: "pkg2", tooldock: { tools: [] } }),
    });
    try {
      const run = await runCli(["validate", "pkg2"], { cwd: dir.path });
      expect(run.code).toBe(1);
      expect(run.stdout).not.toContain("above");
      expect(run.stdout).toContain("The W_NO_TOOLS warning says what was skipped.");
      expect(run.stdout.indexOf("E_NOTHING_TO_VALIDATE")).toBeLessThan(
        run.stdout.indexOf("warning W_NO_TOOLS"),
      );
    } finally {
      await dir.remove();
    }
  });
});
