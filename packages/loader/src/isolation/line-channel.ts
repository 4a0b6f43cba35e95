import type { Readable, Writable } from "node:stream";

/** Longest line either side may send (a call's arguments, a result); past it, the peer is stopped. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Starts each line the tool host sends on its stdout. A module can write to descriptor 1
 * itself (`fs.writeSync(1, …)`, a logger such as pino): those bytes land between the tool
 * host's lines, and the host tells them apart by this mark and shows them as the tool host's
 * output instead of stopping it for breaking the protocol. Not a secret: a module in the
 * tool host can send anything the tool host can, and the host checks every message.
 */
export const MESSAGE_MARK = "\u001e";

/** What {@link readLines} calls. */
export interface LineHandlers {
  /** One complete line, without its `\n`. */
  line(text: string): void;
  /** A line grew past `maxLineBytes` before its `\n`: the stream was destroyed. */
  overflow(): void;
}

/**
 * Reads newline-delimited UTF-8 lines from `stream`, holding at most `maxLineBytes` of one
 * unfinished line: a peer that never ends its line costs this process that much memory and
 * no more.
 */
export function readLines(stream: Readable, maxLineBytes: number, handlers: LineHandlers): void {
  let parts: Buffer[] = [];
  let held = 0;
  let stopped = false;
  stream.on("data", (chunk: Buffer) => {
    if (stopped) return;
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, end);
      const text =
        parts.length === 0 ? piece.toString("utf8") : Buffer.concat([...parts, piece]).toString("utf8");
      parts = [];
      held = 0;
      start = end + 1;
      handlers.line(text);
      if (stopped) return;
    }
    if (start < chunk.length) {
      held += chunk.length - start;
      if (held > maxLineBytes) {
        stopped = true;
        parts = [];
        stream.destroy();
        handlers.overflow();
        return;
      }
      parts.push(chunk.subarray(start));
    }
  });
  stream.on("close", () => {
    stopped = true;
  });
}

/** Writes one message as a line of JSON, after `mark` (the tool host's {@link MESSAGE_MARK}). */
export function writeLine(stream: Writable, message: unknown, mark = ""): void {
  writeText(stream, JSON.stringify(message), mark);
}

/** Writes `json`, one message already as JSON text (no newline in it), as a line after `mark`. */
export function writeText(stream: Writable, json: string, mark = ""): void {
  if (stream.destroyed || !stream.writable) return;
  stream.write(`${mark}${json}\n`);
}
