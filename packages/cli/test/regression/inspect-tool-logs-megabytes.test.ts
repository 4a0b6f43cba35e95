// Attack: a tool logs megabytes through `pi.logger` on every call (a whole file, a big object).
// `tooldock inspect` turns each message into an event log line, keeps the last 500 and replays
// them to every page that connects: uncut, that is gigabytes held and sent again on each
// reconnect. Fix: the event hub cuts every line (summary 1,000, detail 4,000 characters) and
// says how much was left out.
import { describe, expect, it } from "vitest";
import { EventHub } from "../../src/inspect/event-hub.js";
import { inspectWorkspace, postJson, startTestServer } from "../inspect-server-fixture.js";

const CHATTY_TOOL = `
export default (pi) => [{
  name: "chatty",
  label: "Chatty",
  description: "logs a megabyte",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    pi.logger.info("m".repeat(1_000_000), { blob: "d".repeat(1_000_000) });
    return { content: [{ type: "text", text: "done" }] };
  },
}];
`;

describe("regression: a tool that logs megabytes", () => {
  it("every event log line is cut, whoever writes it", () => {
    const hub = new EventHub();
    hub.log("log", "s".repeat(2_000_000), "d".repeat(2_000_000));
    hub.close();
    const [entry] = hub.entries();
    expect(entry?.summary.length).toBeLessThan(1_100);
    expect(entry?.summary).toMatch(/… \[1999000 more\]$/);
    expect(entry?.detail?.length).toBeLessThan(4_100);
  });

  it("a pi.logger message of a megabyte is a short log line", async () => {
    const root = await inspectWorkspace({ tools: { "chatty.js": CHATTY_TOOL } });
    const server = await startTestServer(root);
    const answer = await postJson(server, "/api/call", { callId: "c1", tool: "chatty", params: {} });
    expect(answer.status).toBe(200);
    const line = server.controller.hub.entries().find((entry) => entry.kind === "log");
    expect(line?.summary.startsWith("[info] mmm")).toBe(true);
    expect(line?.summary.length).toBeLessThan(1_100);
    expect(line?.detail?.length).toBeLessThan(4_100);
  });
});
