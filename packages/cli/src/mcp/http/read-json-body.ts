import type { IncomingMessage } from "node:http";

/** Largest request body read, as the SDK's transport bounds the ones it reads itself (4 MiB). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A body read as JSON, or why not: the HTTP status and message to answer with. */
export type JsonBody =
  | { ok: true; value: unknown }
  | { ok: false; status: 400 | 413; code: number; message: string };

/**
 * Reads a request's body and parses it as JSON, reading at most `maxBytes` (a longer body is
 * a `413` without reading the rest; the connection is then closed by the caller's reply).
 */
export function readJsonBody(request: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<JsonBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: JsonBody) => {
      if (done) return;
      done = true;
      resolve(body);
    };
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        request.pause();
        finish({
          ok: false,
          status: 413,
          code: -32600,
          message: `Request body larger than ${maxBytes} bytes`,
        });
        return;
      }
      chunks.push(chunk);
    });
    request.on("error", () =>
      finish({
        ok: false,
        status: 400,
        code: -32700,
        message: "Parse error: the request body could not be read",
      }),
    );
    request.on("end", () => {
      try {
        finish({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      } catch (error) {
        finish({
          ok: false,
          status: 400,
          code: -32700,
          message: `Parse error: the body is not JSON (${error instanceof Error ? error.message : String(error)})`,
        });
      }
    });
  });
}
