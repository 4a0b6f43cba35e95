// Attack: a client of `tooldock mcp --http` opens request after request and never finishes
// their bodies. One body was bounded (4 MiB), their number was not: 200 of them grew the
// server by ~770 MB. Fix: the bytes of all bodies held at once share one budget (32 MiB per
// server); a body that comes when it is spent is answered 503, and a body whose client goes
// away gives its bytes back.
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { DEFAULT_BODY_BUDGET_BYTES } from "../../src/http/body-budget.js";
import { MAX_BODY_BYTES } from "../../src/mcp/http/route-request.js";
import { send, startHttpInProcess, TEST_TOKEN } from "../mcp-http-in-process.js";

/** A POST of `initialize` that announces a 4 MiB body, sends all but its last byte and waits. */
function unfinished(url: string) {
  let answered: (status: number) => void = () => {};
  const status = new Promise<number>((resolve) => {
    answered = resolve;
  });
  const req = request(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      Authorization: `Bearer ${TEST_TOKEN}`,
      "Content-Length": String(MAX_BODY_BYTES),
    },
  });
  req.on("response", (response) => {
    answered(response.statusCode ?? 0);
    response.resume();
  });
  req.on("error", () => {});
  req.write(Buffer.alloc(MAX_BODY_BYTES - 1, 0x20));
  return { status, abort: () => req.destroy() };
}

describe("regression: unfinished request bodies to tooldock mcp --http", () => {
  it("holds at most its budget of them: the next is 503, and the bytes come back when they go", async () => {
    const server = await startHttpInProcess();
    const count = Math.ceil(DEFAULT_BODY_BUDGET_BYTES / (MAX_BODY_BYTES - 1)) + 1;
    const bodies = Array.from({ length: count }, () => unfinished(server.url));
    // The first answer any of them gets: only a body over the budget is answered at all.
    const first = await Promise.race(bodies.map(({ status }) => status));
    expect(first).toBe(503);
    for (const body of bodies) body.abort();
    // Their bytes are back: a whole initialize is served again. (Aborted requests give them
    // back as their connections close, so this waits for the server to have seen that.)
    await expect.poll(async () => (await send(server.url)).status, { timeout: 30_000 }).toBe(200);
  });
});
