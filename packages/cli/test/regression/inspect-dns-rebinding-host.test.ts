// Attack: DNS rebinding. A page on evil.example makes its own name resolve to 127.0.0.1 and
// then talks to the inspect server "same-origin"; its requests carry `Host: evil.example:<port>`.
// Fix: every request whose Host is not the address the server listens on is refused (403)
// before the token is looked at, so even a stolen token or cookie does not help such a page.
import { describe, expect, it } from "vitest";
import { inspectWorkspace, send, startTestServer } from "../inspect-server-fixture.js";

describe("regression: DNS rebinding against tooldock inspect", () => {
  it("refuses a request for another host name, even with the token", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const host = `evil.example:${server.port}`;
    const api = await send(server.port, {
      path: "/api/state",
      headers: { host, authorization: `Bearer ${server.token}` },
    });
    expect(api.status).toBe(403);
    expect(api.body).toContain('refused a request for host "evil.example');
    const visit = await send(server.port, { path: `/?token=${server.token}`, headers: { host } });
    expect(visit.status).toBe(403);
    expect(visit.headers["set-cookie"]).toBeUndefined();
  });

  it("answers the loopback names at its own port only", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const auth = { authorization: `Bearer ${server.token}` };
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `[::1]:${server.port}`]) {
      expect((await send(server.port, { path: "/api/state", headers: { host, ...auth } })).status).toBe(200);
    }
    const otherPort = await send(server.port, {
      path: "/api/state",
      headers: { host: `127.0.0.1:${server.port + 1}`, ...auth },
    });
    expect(otherPort.status).toBe(403);
  });
});
