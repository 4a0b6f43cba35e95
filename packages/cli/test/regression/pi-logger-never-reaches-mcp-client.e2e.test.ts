// End to end: the BUILT `tooldock mcp` (build first: pnpm build) over stdio, with the MCP SDK's
// own client.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt } from "../cli-process.js";
import { startMcpChild } from "../mcp-child.js";
import { connectHttpClient, startMcpHttpChild } from "../mcp-http-child.js";
import { workFolder } from "../memory-io.js";

// Failure (issue 27, item 3): `tooldock mcp` declares the `logging` capability, yet a tool's
// `pi.logger` lines went to stderr only: a client never saw them. Fixed: each line also goes
// to the client as `notifications/message`, the logger named after the calling tool, at the
// level the client asked for (`logging/setLevel`).
const TOOL = `
export default (pi) => ({
  name: "chatty",
  label: "Chatty",
  description: "Logs at every level, then answers.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    pi.logger.debug("checking the cache");
    pi.logger.info("copying", { files: 2 });
    pi.logger.warn("one file was skipped");
    pi.logger.error("the last file failed");
    return { content: [{ type: "text", text: "done" }] };
  },
});
`;

beforeAll(assertBuilt);

describe("pi.logger over tooldock mcp", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;
  const cleanups: Array<() => Promise<void>> = [];
  beforeEach(async () => {
    folder = await workFolder();
    await mkdir(join(folder.path, "tools"), { recursive: true });
    await writeFile(join(folder.path, "tools", "chatty.ts"), TOOL);
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await folder.remove();
  });

  it("reaches the client as log notifications at the level it asked for, named after the tool", async () => {
    const server = await startMcpChild(["tools"], folder.path, { ...folder.env, NO_COLOR: "1" });
    cleanups.push(async () => {
      await server.client.close();
      server.kill();
      await server.exited;
    });
    await server.client.setLoggingLevel("info");

    const result = await server.client.callTool({ name: "chatty", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    await server.client.ping(); // the notifications sent before its answer have arrived

    expect(server.entries).toEqual([
      { level: "info", logger: "chatty", data: 'copying {"files":2}' },
      { level: "warning", logger: "chatty", data: "one file was skipped" },
      { level: "error", logger: "chatty", data: "the last file failed" },
    ]);
    // stderr still has every line, debug included.
    expect(server.stderr()).toContain("[debug] checking the cache");
    expect(server.stderr()).toContain('[info] copying {"files":2}');
  });

  it("over --http, reaches only the client whose call logged it, at that client's level", async () => {
    const server = await startMcpHttpChild(["tools"], folder.path, folder.env);
    cleanups.push(async () => {
      server.kill();
      await server.exited;
    });
    /** A client whose log notifications can be waited for, count by count. */
    const connect = async () => {
      const connected = await connectHttpClient(server.url);
      cleanups.push(() => connected.client.close());
      const logs: Array<{ level: string; logger?: string; data: unknown }> = [];
      let wake = () => {};
      connected.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        logs.push(notification.params);
        wake();
      });
      const received = (count: number) =>
        new Promise<void>((resolve) => {
          wake = () => {
            if (logs.length >= count) resolve();
          };
          wake();
        });
      return { ...connected, logs, received };
    };
    const a = await connect();
    const b = await connect();
    await a.client.setLoggingLevel("warning");

    await a.client.callTool({ name: "chatty", arguments: {} });
    await a.received(2);
    await b.client.callTool({ name: "chatty", arguments: {} });
    await b.received(4);
    // Each session's own lines only; A's level is A's, B (no level set) hears every line.
    expect(a.logs).toEqual([
      { level: "warning", logger: "chatty", data: "one file was skipped" },
      { level: "error", logger: "chatty", data: "the last file failed" },
    ]);
    expect(b.logs.map(({ level }) => level)).toEqual(["debug", "info", "warning", "error"]);
  });
});
