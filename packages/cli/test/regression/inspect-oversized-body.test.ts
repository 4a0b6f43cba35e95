// Attack: a client sends a request body of hundreds of megabytes to the inspect server to
// exhaust its memory. Fix: bodies are read up to 1 MiB; past that the rest is drained unread
// and the answer is 413, and the server goes on answering.
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../src/inspect/inspect-server.js";
import { inspectWorkspace, postJson, send, startTestServer } from "../inspect-server-fixture.js";

describe("regression: oversized request body to tooldock inspect", () => {
  it("answers 413 and keeps serving", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const answer = await send(server.port, {
      method: "POST",
      path: "/api/validate",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
      body: Buffer.alloc(MAX_BODY_BYTES + 10, 0x20),
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toContain("over 1048576 bytes");
    const next = await postJson(server, "/api/validate", { tool: "echo", params: { text: "ok" } });
    expect(next.json).toEqual({ issues: [] });
  });
});
