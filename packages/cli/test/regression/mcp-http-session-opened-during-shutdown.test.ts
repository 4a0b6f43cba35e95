import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { INITIALIZE, send, startHttpInProcess, TEST_TOKEN } from "../mcp-http-in-process.js";

/**
 * Found by a bug hunt: a session opened while `mcp --http` was stopping (an initialize whose
 * body arrived after the signal, on a connection the server kept while it disposed the other
 * sessions) was served: its tools ran after shutdown began, and the actions they staged were
 * never discarded, since the loops that dispose the sessions had already run.
 */

/** Stages an action whose reject waits for the test (so shutdown lasts until the test says). */
const STAGE_TOOL = `export default (pi) => ({
  name: "stage",
  label: "Stage",
  description: "Stages an action.",
  parameters: pi.typebox.Type.Object({}),
  execute: async (_id, _params, _onUpdate, ctx) => {
    ctx.pushPendingAction({
      label: "Held",
      apply: async () => ({ content: [{ type: "text", text: "applied" }] }),
      reject: () => globalThis.__tooldockShutdownGate,
    });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

describe("mcp --http stopping", () => {
  it("refuses an initialize whose body arrives after shutdown began (503), opening no session", async () => {
    let release: () => void = () => {};
    (globalThis as { __tooldockShutdownGate?: Promise<void> }).__tooldockShutdownGate = new Promise(
      (resolve) => {
        release = resolve;
      },
    );
    const server = await startHttpInProcess({}, { "tools/stage.mjs": STAGE_TOOL });
    const opened = await send(server.url);
    const sessionId = String(opened.headers["mcp-session-id"]);
    const headers = { "Mcp-Session-Id": sessionId, "Mcp-Protocol-Version": "2025-06-18" };
    await send(server.url, {
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    const staged = await send(server.url, {
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "stage", arguments: {} },
      }),
    });
    expect(staged.body).toContain("staged");

    // A second client's initialize: headers sent, the body not yet.
    const body = JSON.stringify({ ...INITIALIZE, id: 9 });
    const late = request(server.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        Authorization: `Bearer ${TEST_TOKEN}`,
        "Content-Length": String(Buffer.byteLength(body)),
        // The server answers "100 Continue" once it has the request: the test's cue.
        Expect: "100-continue",
      },
    });
    const received = new Promise<void>((resolve) => late.once("continue", () => resolve()));
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      late.on("response", (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
          if (text.includes("\n\n")) res.destroy();
        });
        const done = () => resolve({ status: res.statusCode ?? 0, body: text });
        res.on("end", done);
        res.on("close", done);
      });
      late.on("error", reject);
    });
    late.flushHeaders();
    await received;
    // Stopping: the other session's disposal waits for the gate, so the server is mid-shutdown.
    server.stop();
    while (!server.stderr().includes("the server is stopping"))
      await new Promise((resolve) => setImmediate(resolve));
    late.end(body);
    const answer = await answered;
    release();
    await server.served;
    expect(answer.status).toBe(503);
    expect(answer.body).toContain("the server is stopping");
    expect(server.stderr()).not.toMatch(/opened \(1 open\)[\s\S]*the server is stopping[\s\S]*opened \(/);
  });
});
