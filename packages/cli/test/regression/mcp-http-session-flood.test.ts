// Attack: a client floods `tooldock mcp --http` with initialize requests (each opens a session
// with every tool registered and started) or with huge bodies, to exhaust memory. Fix: at most
// 100 sessions are open at once (503 beyond, until one ends or idles out); an initialize body
// over 4 MiB is refused with 413 before it is parsed; a body that is not JSON is 400.
import { describe, expect, it } from "vitest";
import { MAX_HTTP_SESSIONS } from "../../src/mcp/http/route-request.js";
import { errorMessage, send, startHttpInProcess } from "../mcp-http-in-process.js";

describe("regression: flooding tooldock mcp --http", () => {
  it(`opens at most ${MAX_HTTP_SESSIONS} sessions; the next initialize is 503`, async () => {
    const server = await startHttpInProcess();
    for (let index = 0; index < MAX_HTTP_SESSIONS; index += 1) {
      expect((await send(server.url)).status).toBe(200);
    }
    const over = await send(server.url);
    expect(over.status).toBe(503);
    expect(errorMessage(over.body)).toContain(`${MAX_HTTP_SESSIONS} sessions are open`);
  });

  it("refuses an initialize body over 4 MiB (413) and one that is not JSON (400)", async () => {
    const server = await startHttpInProcess();
    const huge = await send(server.url, { body: Buffer.alloc(5 * 1024 * 1024, 0x20) });
    expect(huge.status).toBe(413);
    const garbage = await send(server.url, { body: "{ not json" });
    expect(garbage.status).toBe(400);
    expect(errorMessage(garbage.body)).toContain("Parse error");
    expect(server.stderr()).not.toContain("opened");
  });

  it("cuts off a body that goes on far past the bound, and goes on serving", async () => {
    const server = await startHttpInProcess();
    // 20 MiB: read and dropped up to 16 MiB, then the connection is cut (the client may see
    // the 413 or a reset, depending on timing).
    const endless = await send(server.url, { body: Buffer.alloc(20 * 1024 * 1024, 0x20) }).catch(
      (error: NodeJS.ErrnoException) => ({ status: error.code ?? "error" }),
    );
    expect([413, "ECONNRESET", "EPIPE"]).toContain(endless.status);
    expect((await send(server.url)).status).toBe(200);
  });
});
