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
interface LineHandlers {
  /** One complete line, without its `\n`; `continued` when `loose` had its start. */
  line(text: string, continued: boolean): void;
  /** A line grew past `maxLineBytes` before its `\n`: the stream was destroyed. */
  overflow(): void;
  /**
   * The start of an unfinished line up to its first {@link MESSAGE_MARK} (all of it while it
   * has none), as it arrives: a module's own bytes on the tool host's stdout, which may never
   * end their line (a progress bar redrawn with `\r`). Without it, they are held to the `\n`.
   */
  loose?(text: string): void;
}

const MARK_BYTE = MESSAGE_MARK.charCodeAt(0);

/**
 * Reads newline-delimited UTF-8 lines from `stream`, holding at most `maxLineBytes` of one
 * unfinished line: a peer that never ends its line costs this process that much memory and
 * no more.
 */
export function readLines(stream: Readable, maxLineBytes: number, handlers: LineHandlers): void {
  let parts: Buffer[] = [];
  let held = 0;
  let stopped = false;
  /** Whether `loose` had the start of the unfinished line, and whether that line reached its mark. */
  let continued = false;
  let marked = false;
  stream.on("data", (chunk: Buffer) => {
    if (stopped) return;
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, end);
      const text =
        parts.length === 0 ? piece.toString("utf8") : Buffer.concat([...parts, piece]).toString("utf8");
      const wasContinued = continued;
      parts = [];
      held = 0;
      continued = false;
      marked = false;
      start = end + 1;
      handlers.line(text, wasContinued);
      if (stopped) return;
    }
    if (handlers.loose !== undefined && !marked && start < chunk.length) {
      const rest =
        parts.length === 0 ? chunk.subarray(start) : Buffer.concat([...parts, chunk.subarray(start)]);
      const mark = rest.indexOf(MARK_BYTE);
      marked = mark !== -1;
      const cut = marked ? mark : wholeCharacters(rest);
      if (cut > 0) {
        continued = true;
        handlers.loose(rest.subarray(0, cut).toString("utf8"));
        if (stopped) return;
      }
      parts = cut < rest.length ? [rest.subarray(cut)] : [];
      held = rest.length - cut;
      if (held > maxLineBytes) overflowed();
      return;
    }
    if (start < chunk.length) {
      held += chunk.length - start;
      if (held > maxLineBytes) return overflowed();
      parts.push(chunk.subarray(start));
    }
  });
  stream.on("close", () => {
    stopped = true;
  });
  function overflowed(): void {
    stopped = true;
    parts = [];
    stream.destroy();
    handlers.overflow();
  }
}

/** The length of `bytes` up to the end of its last whole UTF-8 character. */
function wholeCharacters(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // within a character
    const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return size > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** Writes `json` (one message, no newline in it) as a line, after `mark` (see {@link MESSAGE_MARK}). */
export function writeLine(stream: Writable, json: string, mark = ""): void {
  if (stream.destroyed || !stream.writable) return;
  stream.write(`${mark}${json}\n`);
}
