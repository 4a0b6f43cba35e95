// Attack: another user or process on the machine (or the network, with --host 0.0.0.0) finds
// the port and calls the tools. Fix: with a token (every server has one unless --no-token) every request to /mcp
// needs `Authorization: Bearer <token>`; missing, wrong, a prefix or a longer guess is 401
// (compared in constant time over SHA-256 digests).
import { describe, expect, it } from "vitest";
import { errorMessage, send, startHttpInProcess } from "../mcp-http-in-process.js";

describe("regression: calling tooldock mcp --http without its token", () => {
  it("refuses a missing, wrong, shorter or longer token with 401; the right one opens a session", async () => {
    const server = await startHttpInProcess({ token: "correct-horse" });
    const missing = await send(server.url, { token: null });
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toBe('Bearer realm="tooldock"');
    expect(errorMessage(missing.body)).toContain("needs a bearer token");
    for (const guess of ["correct-hors", "correct-horse2", "CORRECT-HORSE", "Basic correct-horse"]) {
      const authorization = guess.startsWith("Basic") ? guess : `Bearer ${guess}`;
      expect((await send(server.url, { headers: { Authorization: authorization } })).status, guess).toBe(401);
    }
    expect(server.stderr()).not.toContain("opened");
    const right = await send(server.url, { headers: { Authorization: "Bearer correct-horse" } });
    expect(right.status).toBe(200);
    expect(right.headers["mcp-session-id"]).toEqual(expect.any(String));
  });

  it("also refuses a request for an existing session without the token", async () => {
    const server = await startHttpInProcess({ token: "correct-horse" });
    const opened = await send(server.url, { headers: { Authorization: "Bearer correct-horse" } });
    const sessionId = String(opened.headers["mcp-session-id"]);
    const hijack = await send(server.url, {
      headers: { "Mcp-Session-Id": sessionId },
      token: null,
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(hijack.status).toBe(401);
  });
});
