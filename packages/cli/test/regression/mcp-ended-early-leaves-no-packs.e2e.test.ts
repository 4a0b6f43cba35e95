// Found running the CLI under Node 24: on Node 22.15+ a cold load compiles file by file and
// writes its packs after it returns. `call`, `list` and the other one-shot commands wait for
// those writes before the process exits; `mcp` and `inspect` (which load through the watcher
// or the loader directly) did not, so a client that ended the server soon after it started
// (an MCP client that runs one call and quits) left no packs behind, and every start was cold.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { testRuntime } from "../../../../scripts/runtimes.mjs";
import { assertBuilt, cliBin, runProcess, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

const tool = (name: string) => `import { helper } from "./helpers/${name}.js";
export default (pi: any) => ({
  name: "${name}",
  label: "${name}",
  description: helper("A tool."),
  parameters: pi.typebox.Type.Object({ text: pi.typebox.Type.String() }),
  async execute(_id: string, params: { text: string }) {
    return { content: [{ type: "text" as const, text: helper(params.text) }] };
  },
});
`;
/** Enough that their packs take longer to write than the server's exit grace (1 s, then 200 ms). */
const TOOLS = 400;
const helper = "export function helper(text: string): string {\n  return text.trim();\n}\n";

describe("tooldock mcp on Node 24, ended as soon as it serves", () => {
  for (const flags of [[], ["--watch"]])
    it(`leaves the packs of its cold load (mcp ${flags.join(" ")})`, {
      timeout: 120_000,
    }, async (context) => {
      const node = await testRuntime("node@24", context.skip);
      const files: Record<string, string> = {};
      for (let at = 0; at < TOOLS; at += 1) {
        files[`tools/tool_${at}.ts`] = tool(`tool_${at}`);
        files[`tools/helpers/tool_${at}.ts`] = helper;
      }
      const dir = await tempDir(files);
      const cache = join(dir.path, "cache");
      try {
        // stdin is /dev/null: the client is gone as soon as the server has loaded.
        const run = await runProcess(node, [cliBin, "mcp", ...flags, "tools"], {
          cwd: dir.path,
          env: { TOOLDOCK_CACHE_DIR: cache },
        });
        expect(run.stderr).toContain(`serving ${TOOLS} tools`);
        const bundles = join(cache, "bundles");
        const packs = () =>
          existsSync(bundles) ? readdirSync(bundles).filter((name) => name.endsWith(".mjs")).length : 0;
        const left = packs();
        // A one-shot command on the same cache writes whatever packs the server did not.
        const list = await runProcess(node, [cliBin, "list", "tools"], {
          cwd: dir.path,
          env: { TOOLDOCK_CACHE_DIR: cache },
        });
        expect(list.code).toBe(0);
        expect(left).toBeGreaterThan(0);
        expect(left).toBe(packs());
      } finally {
        await dir.remove();
      }
    });
});
