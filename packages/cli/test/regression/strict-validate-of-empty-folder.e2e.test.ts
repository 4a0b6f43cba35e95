// Attack (on CI): `tooldock validate --strict` of a folder with no tools (a mistyped path in a
// workflow, a tools folder emptied by a bad merge) passed, so CI went green having checked
// nothing. A folder with no module at all is now E_NOTHING_TO_VALIDATE (exit 1) with or without
// --strict (see omp-install-manifest-validates-nothing). Failure (issue 27): modules that load
// no tool at all still passed without --strict (only --strict warned); they are now
// E_NOTHING_TO_VALIDATE too, --strict or not.
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

describe("validate --strict of a folder with no tools", () => {
  it("fails with exit 1 when its modules load no tool, --strict or not, and says there was nothing to validate", async () => {
    const dir = await tempDir({ "tools/unconfigured.ts": "export default () => [];\n" });
    try {
      for (const flags of [["--strict"], []]) {
        const run = await runCli(["validate", "tools", ...flags, "--format", "json"], { cwd: dir.path });
        expect(run.code).toBe(1);
        const report = JSON.parse(run.stdout);
        expect(report.diagnostics).toContainEqual(
          expect.objectContaining({
            code: "E_NOTHING_TO_VALIDATE",
            message: "The module found in tools gave no tool, so nothing was validated.",
          }),
        );
      }
    } finally {
      await dir.remove();
    }
  });

  it("fails with exit 1 and says there was nothing to validate", async () => {
    const dir = await tempDir({ "tools/README.md": "No tools here yet.\n" });
    try {
      const strict = await runCli(["validate", "tools", "--strict", "--format", "json"], { cwd: dir.path });
      expect(strict.code).toBe(1);
      const report = JSON.parse(strict.stdout);
      expect(report.ok).toBe(false);
      expect(report.diagnostics.map((diagnostic: { code: string }) => diagnostic.code)).toEqual([
        "E_NOTHING_TO_VALIDATE",
      ]);

      const relaxed = await runCli(["validate", "tools"], { cwd: dir.path });
      expect(relaxed.code).toBe(1);
    } finally {
      await dir.remove();
    }
  });
});
