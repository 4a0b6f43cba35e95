// Attack: any local process or web page reaching the inspect port runs tools (and applies
// their pending changes) without the token the command printed. Fix: no request is served
// without the token (URL on the first visit, then a port-specific HttpOnly cookie, or a
// bearer header), compared in constant time; a wrong token gets no cookie.
import { describe, expect, it } from "vitest";
import { inspectWorkspace, send, startTestServer } from "../inspect-server-fixture.js";

describe("regression: requests to tooldock inspect without its token", () => {
  it("refuses every route without the token, and with a wrong one", async () => {
    const server = await startTestServer(await inspectWorkspace());
    for (const path of ["/", "/app.js", "/api/state", "/api/events"]) {
      const answer = await send(server.port, { path });
      expect(answer.status, path).toBe(401);
      expect(answer.body).toContain("Open the URL that `tooldock inspect` printed");
    }
    const call = await send(server.port, {
      method: "POST",
      path: "/api/call",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ callId: "x", tool: "echo", params: { text: "hi" } }),
    });
    expect(call.status).toBe(401);
    const wrong = await send(server.port, { path: "/?token=guess" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["set-cookie"]).toBeUndefined();
    const prefix = await send(server.port, { path: `/?token=${server.token.slice(0, -1)}` });
    expect(prefix.status).toBe(401);
    expect(
      (await send(server.port, { path: "/api/state", headers: { authorization: "Bearer guess" } })).status,
    ).toBe(401);
  });

  it("takes a cookie only under this server's own name", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const ownName = `tooldock-inspect-${server.port}`;
    const other = await send(server.port, {
      path: "/api/state",
      headers: { cookie: `tooldock-inspect-1=${server.token}` },
    });
    expect(other.status).toBe(401);
    const wrong = await send(server.port, { path: "/api/state", headers: { cookie: `${ownName}=guess` } });
    expect(wrong.status).toBe(401);
    const right = await send(server.port, {
      path: "/api/state",
      headers: { cookie: `${ownName}=${server.token}` },
    });
    expect(right.status).toBe(200);
  });
});
