// End to end: the BUILT `tooldock mcp --watch` (build first: pnpm build) over stdio, with the
// MCP SDK's own client.
//
// Found by a review: a reload whose module failed told the client's log "1 error, see above",
// and nothing was above it there: the diagnostics went to the server's stderr only, which the
// client (an editor's MCP panel) never shows. The client's log message now carries the errors.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, expect, it, vi } from "vitest";
import { assertBuilt } from "../cli-process.js";
import { startMcpChild } from "../mcp-child.js";
import { workFolder } from "../memory-io.js";

const TOOL = `export default (pi) => ({
  name: "greet",
  label: "Greet",
  description: "Answers hello.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text", text: "hello" }] };
  },
});
`;

beforeAll(assertBuilt);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

it("mcp-watch-reload-error-says-see-above-to-the-client: the client's log names the error", async () => {
  const folder = await workFolder();
  cleanups.push(() => folder.remove());
  await mkdir(join(folder.path, "tools"), { recursive: true });
  await writeFile(join(folder.path, "tools", "greet.js"), TOOL);
  const server = await startMcpChild(["--watch", "tools"], folder.path, folder.env);
  cleanups.push(async () => {
    await server.client.close();
    server.kill();
    await server.exited;
  });
  await server.client.setLoggingLevel("info");

  await writeFile(join(folder.path, "tools", "greet.js"), `${TOOL}\nexport const broken = ;\n`);
  await vi.waitFor(
    () => expect(server.logs.some((log) => log.startsWith("reloaded after a change"))).toBe(true),
    {
      timeout: 60_000,
    },
  );
  const reload = server.entries.find(({ data }) => String(data).startsWith("reloaded after a change"));
  expect(reload?.level).toBe("warning");
  const text = String(reload?.data);
  expect(text).not.toContain("see above");
  expect(text).toContain("1 error");
  expect(text).toMatch(/tools[\\/]greet\.js/);
  expect(text).toContain("E_COMPILE");
  // The previous tool still answers.
  const result = await server.client.callTool({ name: "greet", arguments: {} });
  expect(result.content).toEqual([{ type: "text", text: "hello" }]);
});
