import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it, onTestFinished } from "vitest";
import { createChatServer } from "../../src/chat-server.js";
import { tempDir } from "../temp-dir.js";

/** A tool that logs each session event it hears, so a session that is never closed shows. */
const LIFECYCLE_TOOL = `import { appendFileSync } from "node:fs";
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "lifecycle",
  label: "Lifecycle",
  description: "Logs the session events it hears.",
  parameters: Type.Object({}),
  async execute() {
    return { content: [{ type: "text", text: "ok" }] };
  },
  onSession(event: { reason: string }, ctx: { sessionId: string }) {
    appendFileSync(process.env.LIFECYCLE_LOG ?? "", event.reason + " " + ctx.sessionId + "\\n");
  },
});
`;

it("open(id) twice at once: the second is refused as already open, and no session is left unclosed", async () => {
  const folder = await tempDir({ "tools/lifecycle.ts": LIFECYCLE_TOOL });
  onTestFinished(folder.remove);
  const log = join(folder.path, "lifecycle.log");
  await writeFile(log, "");
  process.env.LIFECYCLE_LOG = log;
  onTestFinished(() => {
    delete process.env.LIFECYCLE_LOG;
  });
  const server = await createChatServer({
    toolsPath: join(folder.path, "tools"),
    cwd: folder.path,
    model: "gpt-4.1",
    complete: async () => {
      throw new Error("no model call is expected");
    },
  });
  expect(server.diagnostics.filter((d) => d.severity === "error")).toEqual([]);

  const opened = await Promise.allSettled([server.open("A"), server.open("A")]);
  expect(opened.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
  expect(opened.find((outcome) => outcome.status === "rejected")).toMatchObject({
    reason: new Error('Conversation "A" is already open.'),
  });

  await server.close("A");
  // Every session that heard `start` heard `shutdown`: none was left open behind the map.
  const events = (await readFile(log, "utf8")).split("\n").filter(Boolean);
  expect(events).toEqual(["start A", "shutdown A"]);
});
