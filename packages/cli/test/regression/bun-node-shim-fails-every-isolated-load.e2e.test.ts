// Found running the CLI the way Bun users run scripts: `bun --bun run validate` (and `bun run`
// where Node is missing) puts a `node` that is Bun itself first on PATH. On Bun the tool host
// runs under `node` from PATH, so every isolated load asked Bun's shim for its version and
// failed with E_TOOL_HOST ("Install Node"), with Node installed further down PATH. Fixed: on
// Bun the tool host runs under the first `node` on PATH that is not Bun.
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testRuntime } from "../../../../scripts/runtimes.mjs";
import { assertBuilt, cliBin, runProcess, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

const TOOL = `export default (pi) => ({ name: "echo", label: "Echo", description: "Echoes.", parameters: pi.typebox.Type.Object({}), execute: async () => ({ content: [] }) });
`;

describe("tooldock validate on Bun with Bun's node shim first on PATH", () => {
  it("runs the tool host under the Node further down PATH", { timeout: 120_000 }, async (context) => {
    const bun = await testRuntime("bun@1.4", context.skip);
    const dir = await tempDir({ "tools/echo.mjs": TOOL });
    const bins = await mkdtemp(join(tmpdir(), "tooldock-node-shim-"));
    try {
      // As `bun --bun run` makes it: a folder whose `node` is Bun, first; then a real Node.
      const shim = join(bins, "shim");
      const real = join(bins, "real");
      await Promise.all([mkdir(shim), mkdir(real)]);
      await symlink(bun, join(shim, "node"));
      await symlink(process.execPath, join(real, "node"));
      const run = await runProcess(bun, [cliBin, "validate", "tools"], {
        cwd: dir.path,
        env: { PATH: `${shim}:${real}`, TOOLDOCK_CACHE_DIR: join(dir.path, "cache") },
      });
      expect(run.stdout).not.toContain("E_TOOL_HOST");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("1 module, 1 tool, 0 errors");
    } finally {
      await dir.remove();
      await rm(bins, { recursive: true, force: true });
    }
  });
});
