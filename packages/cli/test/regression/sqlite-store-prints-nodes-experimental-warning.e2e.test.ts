// Found running the CLI under Node 22, which users run: every command that opens a
// `--store sqlite:…` (`call`, `pending`, `mcp`, `inspect`) printed Node's
//   (node:…) ExperimentalWarning: SQLite is an experimental feature and might change at any time
// on stderr, which says nothing to a user of the CLI (the store is Tooldock's choice of
// driver, not theirs) and reads like something went wrong. Node 24 no longer warns.
import { beforeAll, describe, expect, it } from "vitest";
import { ensureRuntime } from "../../../../scripts/runtimes.mjs";
import { assertBuilt, cliBin, runProcess, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

const TOOL = `export default (pi) => ({ name: "echo", label: "Echo", description: "Echoes.", parameters: pi.typebox.Type.Object({}), execute: async () => ({ content: [{ type: "text", text: "echoed" }] }) });
`;

describe("a --store sqlite:… under Node 22", () => {
  it("prints no ExperimentalWarning on call and pending", { timeout: 600_000 }, async () => {
    const node = await ensureRuntime("node@22", { cacheDir: process.env.TOOLDOCK_TEST_RUNTIMES_CACHE });
    const dir = await tempDir({ "tools/echo.mjs": TOOL });
    const store = ["--store", `sqlite:${dir.path}/state/pending.db`, "--session", "s1"];
    const options = { cwd: dir.path, env: { TOOLDOCK_CACHE_DIR: `${dir.path}/cache` } };
    try {
      const call = await runProcess(
        node,
        [cliBin, "call", "echo", "tools", "--args", "{}", ...store],
        options,
      );
      expect(call.stderr).not.toContain("ExperimentalWarning");
      expect(call.stdout).toContain("echoed");
      expect(call.code).toBe(0);
      const list = await runProcess(node, [cliBin, "pending", "list", ...store], options);
      expect(list.stderr).not.toContain("ExperimentalWarning");
      expect(list.code).toBe(0);
      expect(list.stdout).toContain("s1");
    } finally {
      await dir.remove();
    }
  });
});
