// Attack: DNS rebinding. A page on evil.example makes its name resolve to 127.0.0.1 and talks
// to `tooldock mcp --http` "same-origin": its requests carry `Host: evil.example:<port>` and
// could open a session and run the tools. Fix: a request whose Host is not a name of this
// server (localhost, 127.0.0.1, [::1], --host, --allow-host) is refused with 403 before
// anything else, token or not.
import { describe, expect, it } from "vitest";
import { errorMessage, send, startHttpInProcess } from "../mcp-http-in-process.js";

describe("regression: DNS rebinding against tooldock mcp --http", () => {
  it("refuses a request for another host name (403), even with the right token; no session opens", async () => {
    const server = await startHttpInProcess({ token: "t0ken" });
    const refused = await send(server.url, {
      headers: { Host: `evil.example:${server.port}`, Authorization: "Bearer t0ken" },
    });
    expect(refused.status).toBe(403);
    expect(errorMessage(refused.body)).toContain('Host "evil.example:');
    expect(server.stderr()).not.toContain("opened");
  });

  it("answers the loopback names, and a name given with --allow-host", async () => {
    const server = await startHttpInProcess({ allowHosts: ["tooldock.test"] });
    for (const host of ["127.0.0.1", "localhost", "[::1]", "tooldock.test"]) {
      const answer = await send(server.url, { headers: { Host: `${host}:${server.port}` } });
      expect(answer.status, host).toBe(200);
    }
  });

  it("on every address (0.0.0.0), prints a loopback URL its own Host check accepts, and warns", async () => {
    const server = await startHttpInProcess({ host: "0.0.0.0", token: false });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect((await send(server.url, { token: null })).status).toBe(200);
    expect(server.stderr()).toContain("without a token");
    // Printed after the URL: wait for it rather than race it.
    await expect.poll(() => server.stderr()).toContain("listening on every address (0.0.0.0)");
    const byZero = await send(server.url, { headers: { Host: `0.0.0.0:${server.port}` } });
    expect(byZero.status).toBe(403);
  });
});
