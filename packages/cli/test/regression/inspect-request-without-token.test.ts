// Attack: any local process or web page reaching the inspect port runs tools (and applies
// their pending changes) without the token the command printed. Fix: no API request, and no
// POST, is served without the token as `Authorization: Bearer <token>`, compared in constant
// time; the page's own files (no secret in them) are all that is served without it.
import { describe, expect, it } from "vitest";
import { inspectWorkspace, send, startTestServer } from "../inspect-server-fixture.js";

describe("regression: requests to tooldock inspect without its token", () => {
  it("refuses every API route and every POST without the token, and with a wrong one", async () => {
    const server = await startTestServer(await inspectWorkspace());
    for (const path of ["/api/state", "/api/events", "/api/nothing"]) {
      const answer = await send(server.port, { path });
      expect(answer.status, path).toBe(401);
      expect(answer.body).toContain("Open the URL that `tooldock inspect` printed");
    }
    for (const path of ["/api/call", "/", "/app.js"]) {
      const post = await send(server.port, {
        method: "POST",
        path,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ callId: "x", tool: "echo", params: { text: "hi" } }),
      });
      expect(post.status, path).toBe(401);
    }
    for (const guess of ["guess", server.token.slice(0, -1), `${server.token}x`]) {
      const answer = await send(server.port, {
        path: "/api/state",
        headers: { authorization: `Bearer ${guess}` },
      });
      expect(answer.status, guess).toBe(401);
    }
  });

  // Found by a bug hunt: the auth scheme is case-insensitive (RFC 9110), as the MCP HTTP
  // server reads it; inspect refused "bearer <token>".
  it("takes the token under any case of the scheme, and nothing else around it", async () => {
    const server = await startTestServer(await inspectWorkspace());
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const answer = await send(server.port, {
        path: "/api/state",
        headers: { authorization: `${scheme} ${server.token}` },
      });
      expect(answer.status, scheme).toBe(200);
    }
    const padded = await send(server.port, {
      path: "/api/state",
      headers: { authorization: `Bearer ${server.token} x` },
    });
    expect(padded.status).toBe(401);
  });

  it("takes no cookie at all, not even one holding the token", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const answer = await send(server.port, {
      path: "/api/state",
      headers: { cookie: `tooldock-inspect-${server.port}=${server.token}` },
    });
    expect(answer.status).toBe(401);
  });
});
