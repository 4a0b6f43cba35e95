// Found loading an opencode tool written for Bun in a host that runs on Bun: W_BUN_API said
// "Tooldock runs tools on Node, so a call that reaches it fails", while the call worked. The
// warning now says where the call works (this Bun host) and where it fails (Node, a tool host).
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { testRuntime } from "../../../../scripts/runtimes.mjs";
import { builtEntry } from "../helpers.js";

const OPENCODE_TOOL = `import { tool } from "@opencode-ai/plugin";
export default tool({
  description: "Reads a file with Bun's API",
  args: { path: tool.schema.string().describe("The file") },
  async execute(args) { return await Bun.file(args.path).text(); },
});
`;

describe("an opencode tool that uses Bun's global, in a host on Bun", () => {
  it("works, and its W_BUN_API says it fails only where tools run on Node", async (context) => {
    const bun = await testRuntime("bun@1.4", context.skip);
    const root = await realpath(await mkdtemp(join(tmpdir(), "tooldock-bun-api-")));
    try {
      await mkdir(join(root, ".opencode", "tool"), { recursive: true });
      await writeFile(join(root, ".opencode", "tool", "read.ts"), OPENCODE_TOOL);
      await writeFile(join(root, "hello.txt"), "hello from Bun");
      const script = join(root, "host.mjs");
      await writeFile(
        script,
        `import { loadCustomTools } from ${JSON.stringify(builtEntry("loader"))};
import { Session } from ${JSON.stringify(builtEntry("runtime"))};
const session = new Session({ cwd: ${JSON.stringify(root)} });
const loaded = await loadCustomTools({ paths: [${JSON.stringify(root)}], cwd: ${JSON.stringify(root)},
  cacheDir: ${JSON.stringify(join(root, "cache"))}, session, opencode: true });
const result = await session.execute({ toolCallId: "1", name: "read", params: { path: ${JSON.stringify(join(root, "hello.txt"))} } });
console.log(JSON.stringify({ diagnostics: loaded.diagnostics, result }));
await session.dispose();
`,
      );
      const { stdout } = await promisify(execFile)(bun, [script], { encoding: "utf8" });
      const report = JSON.parse(stdout);
      expect(report.result).toMatchObject({ content: [{ type: "text", text: "hello from Bun" }] });
      expect(report.diagnostics.map((diagnostic: { code: string }) => diagnostic.code)).toEqual([
        "W_BUN_API",
      ]);
      const [warning] = report.diagnostics;
      expect(warning.message).not.toContain("Tooldock runs tools on Node, so a call that reaches it fails");
      expect(warning.message).toMatch(
        /uses Bun\.file, which only the Bun runtime has: it works in this host, which runs on Bun, but a call that reaches it fails where Tooldock runs tools on Node/,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
