import type { Readable } from "node:stream";

/** What {@link readReportLines} calls. */
export interface ReportLineHandlers {
  /** One complete line (without its `\n`), as bytes. */
  line(bytes: Buffer): void;
  /** The stream carried more than `maxBytes` in all; it has been destroyed. */
  overflow(): void;
}

/**
 * Reads newline-delimited lines from a child's report channel, counting bytes as they
 * arrive: past `maxBytes` in all (however they are split into lines), it stops reading,
 * destroys the stream and calls `overflow` once, so a child that floods the channel costs
 * the parent at most `maxBytes` of memory.
 */
export function readReportLines(stream: Readable, maxBytes: number, handlers: ReportLineHandlers): void {
  let total = 0;
  let parts: Buffer[] = [];
  let stopped = false;
  stream.on("error", () => {
    // A channel that breaks (the child died) ends the reading; the exit tells the rest.
  });
  stream.on("data", (chunk: Buffer) => {
    if (stopped) return;
    total += chunk.length;
    if (total > maxBytes) {
      stopped = true;
      parts = [];
      stream.destroy();
      handlers.overflow();
      return;
    }
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, end));
      const bytes = Buffer.concat(parts);
      parts = [];
      start = end + 1;
      handlers.line(bytes);
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
}
