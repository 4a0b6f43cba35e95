// End to end: the BUILT `tooldock mcp --watch` over real stdio, driven by the MCP SDK's own
// client. A tool file is edited while a pending action it staged waits: the client is sent
// notifications/tools/list_changed, lists the new tool, and still resolves the old action.
// Build first: `pnpm build`.
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, cliBin } from "./cli-process.js";
import { textOf } from "./mcp-in-memory.js";

/**
 * A tool that stages writing `<file>` with `<version>` in it; applying writes the file. The
 * description names the version, so a client can see which one it lists.
 */
const writerTool = (version: string) => `import { writeFile } from "node:fs/promises";
import { join } from "node:path";
export default (pi: any) => ({
  name: "write_stamp",
  label: "Write a stamp",
  description: "Stages writing a stamp file (${version}).",
  parameters: pi.typebox.Type.Object({ file: pi.typebox.Type.String() }),
  async execute(_id: string, params: { file: string }) {
    pi.pushPendingAction({
      label: "Write " + params.file + " (${version})",
      apply: async () => {
        await writeFile(join(pi.cwd, params.file), "${version}");
        return { content: [{ type: "text" as const, text: "wrote " + params.file + " (${version})" }] };
      },
    });
    return { content: [{ type: "text" as const, text: "${version}: would write " + params.file }] };
  },
});
`;

let workDir: string;
let client: Client | undefined;

beforeAll(() => {
  assertBuilt();
});

beforeEach(async () => {
  workDir = await mkdtemp(join(tmpdir(), "tooldock-mcp-watch-"));
});

afterEach(async () => {
  await client?.close();
  client = undefined;
  await rm(workDir, { recursive: true, force: true });
});

describe("tooldock mcp --watch (built, over stdio)", () => {
  it("sends list_changed after an edit and resolves an action staged before it", async () => {
    const tools = join(workDir, "tools");
    await mkdir(tools);
    await writeFile(join(tools, "write-stamp.ts"), writerTool("v1"));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliBin, "mcp", "--watch", "tools"],
      cwd: workDir,
      // The SDK passes only a few variables by default: the run's TMPDIR and XDG folders must
      // reach the server, or its compile cache lands in the user's home.
      env: Object.fromEntries(
        Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
      ),
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: "e2e-watch", version: "1.0.0" });
    const waiters: Array<() => void> = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      for (const wake of waiters.splice(0)) wake();
    });
    const nextListChanged = () => new Promise<void>((resolve) => waiters.push(resolve));
    await client.connect(transport);

    // `resolve` is listed from the start (the default, --resolve always).
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(["resolve", "write_stamp"]);
    const staged = await client.callTool({ name: "write_stamp", arguments: { file: "stamp.txt" } });
    expect(textOf(staged)).toContain("v1: would write stamp.txt");

    // Edit the tool; wait (on notifications, not time) until the client lists the new version.
    await writeFile(join(tools, "write-stamp.ts"), writerTool("v2"));
    let description = "";
    while (!description.includes("(v2)")) {
      await nextListChanged();
      const { tools: now } = await client.listTools();
      description = now.find((tool) => tool.name === "write_stamp")?.description ?? "";
    }

    // The action staged by v1 is still pending: resolve, still listed, applies it.
    const { tools: withResolve } = await client.listTools();
    expect(withResolve.map((tool) => tool.name).sort()).toEqual(["resolve", "write_stamp"]);
    const applied = await client.callTool({ name: "resolve", arguments: { action: "apply", reason: "ok" } });
    expect(applied.isError).toBeFalsy();
    expect(textOf(applied)).toContain("wrote stamp.txt (v1)");
    expect((await readdir(workDir)).sort()).toContain("stamp.txt");

    const again = await client.callTool({ name: "write_stamp", arguments: { file: "second.txt" } });
    expect(textOf(again)).toContain("v2: would write second.txt");
    expect(stderr).toContain("reloading on changes");
    expect(stderr).toContain("replaced write_stamp");
  });
});
