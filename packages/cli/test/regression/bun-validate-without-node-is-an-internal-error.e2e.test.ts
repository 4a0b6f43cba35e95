// Found running the CLI on Bun in a Bun-only environment: validate isolates by default, and on
// Bun its tool hosts run under `node` from PATH. With none there the load rejected, and
// `tooldock validate` ended in "internal error: Executable not found in $PATH" (exit 2, a
// stack trace, "please report it"). Fixed: each module is an E_TOOL_HOST that says the tool
// host needs Node, exit 1.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testRuntime } from "../../../../scripts/runtimes.mjs";
import { assertBuilt, cliBin, runProcess, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

const TOOL = `export default (pi) => ({ name: "echo", label: "Echo", description: "Echoes.", parameters: pi.typebox.Type.Object({}), execute: async () => ({ content: [] }) });
`;

describe("tooldock validate on Bun with no node on PATH", () => {
  it("reports E_TOOL_HOST saying the tool host needs Node, not an internal error", {
    timeout: 120_000,
  }, async (context) => {
    const bun = await testRuntime("bun@1.4", context.skip);
    const dir = await tempDir({ "tools/echo.mjs": TOOL });
    const emptyPath = await mkdtemp(join(tmpdir(), "tooldock-no-node-"));
    try {
      const run = await runProcess(bun, [cliBin, "validate", "tools"], {
        cwd: dir.path,
        env: { PATH: emptyPath, TOOLDOCK_CACHE_DIR: join(dir.path, "cache") },
      });
      expect(run.stderr).not.toContain("internal error");
      expect(run.code).toBe(1);
      expect(run.stdout).toContain("error E_TOOL_HOST tools/echo.mjs");
      expect(run.stdout).toContain("It could not start: node could not be run");
      expect(run.stdout).toMatch(
        /on Bun, which has no permission model, the first `node` on PATH that is not Bun/,
      );
    } finally {
      await dir.remove();
      await rm(emptyPath, { recursive: true, force: true });
    }
  });
});
