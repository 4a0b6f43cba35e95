import type { IncomingMessage } from "node:http";
import type { BodyBudget } from "./body-budget.js";

// Request bodies of the CLI's local servers (`tooldock mcp --http`, `tooldock inspect`).

/** How much more than the bound is read and dropped after a `413` before the connection is cut. */
const DRAIN_LIMIT_FACTOR = 4;

/**
 * A body read as JSON, or why not: the HTTP status, a JSON-RPC `code` and `message` (as
 * `tooldock mcp --http` answers), and the `reason` in plain words ("is over 1048576 bytes",
 * "is not JSON: …", "could not be read"), completing "The request body …".
 */
export type JsonBody =
  | { ok: true; value: unknown }
  | { ok: false; status: 400 | 413 | 503; code: number; message: string; reason: string };

/**
 * Reads a request's body and parses it as JSON, keeping at most `maxBytes`. A longer body is a
 * `413` as soon as it passes the bound (not when it ends, which a client may never do); the
 * caller answers with `Connection: close`, and the rest of the body is read and dropped (up to
 * four times the bound, then the connection is cut). The bytes it keeps come out of `budget`,
 * the server's for all its requests: when that is spent, the body is a `503` and the
 * connection is cut; they go back once the body is parsed or refused.
 */
export function readJsonBody(
  request: IncomingMessage,
  maxBytes: number,
  budget: BodyBudget,
): Promise<JsonBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let held = 0;
    let done = false;
    const finish = (body: JsonBody) => {
      if (done) return;
      done = true;
      budget.give(held);
      held = 0;
      resolve(body);
    };
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (done) {
        if (size > DRAIN_LIMIT_FACTOR * maxBytes) request.destroy();
        return;
      }
      if (size <= maxBytes) {
        if (!budget.take(chunk.length)) {
          chunks.length = 0;
          finish({
            ok: false,
            status: 503,
            code: -32000,
            message:
              "Service Unavailable: the server holds too many request bodies at once; send it again later",
            reason: "came while the server held too many others (retry later)",
          });
          return; // the rest is dropped as it comes, as after a 413
        }
        held += chunk.length;
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      finish({
        ok: false,
        status: 413,
        code: -32600,
        message: `Request body larger than ${maxBytes} bytes`,
        reason: `is over ${maxBytes} bytes`,
      });
      // The rest is read and dropped, so the client gets the 413 (a socket closed on unread
      // data is reset, and the reply lost with it); a body that goes on and on is cut off.
      if (size > DRAIN_LIMIT_FACTOR * maxBytes) request.destroy();
    });
    const unreadable = () =>
      finish({
        ok: false,
        status: 400,
        code: -32700,
        message: "Parse error: the request body could not be read",
        reason: "could not be read",
      });
    request.on("error", unreadable);
    // A client that goes away mid-body sends neither "end" nor always "error": its bytes go back.
    request.on("close", unreadable);
    request.on("end", () => {
      try {
        finish({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        finish({
          ok: false,
          status: 400,
          code: -32700,
          message: `Parse error: the body is not JSON (${why})`,
          reason: `is not JSON: ${why}`,
        });
      }
    });
  });
}
