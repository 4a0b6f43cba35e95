/**
 * pi's helpers for truncating a tool's output, as `@mariozechner/pi-coding-agent` exports them
 * (pi's extension docs say a tool must truncate what it returns): two limits, lines and bytes
 * (UTF-8), whichever is reached first; whole lines only, but for a tail whose last line alone
 * is too long.
 */

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
/** The characters of one line pi's grep keeps ({@link truncateLine}'s default). */
export const GREP_MAX_LINE_LENGTH = 500;

export interface TruncationOptions {
  /** Default: {@link DEFAULT_MAX_LINES}. */
  maxLines?: number;
  /** Default: {@link DEFAULT_MAX_BYTES}. */
  maxBytes?: number;
}

export interface TruncationResult {
  content: string;
  truncated: boolean;
  /** The limit that cut the content, `null` when nothing was cut. */
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  /** A tail whose last line alone was over `maxBytes`: the content is that line's end. */
  lastLinePartial: boolean;
  /** A head whose first line alone was over `maxBytes`: the content is empty. */
  firstLineExceedsLimit: boolean;
  maxLines: number;
  maxBytes: number;
}

const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

/** `bytes` as pi shows a size: `512B`, `1.5KB`, `3.0MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/** The first lines of `content` within the limits (for file reads and search results). */
export function truncateHead(content: string, options: TruncationOptions = {}): TruncationResult {
  return truncate(content, options, "head");
}

/** The last lines of `content` within the limits (for logs and command output). */
export function truncateTail(content: string, options: TruncationOptions = {}): TruncationResult {
  return truncate(content, options, "tail");
}

/** `line` cut to `maxChars` characters, marked `... [truncated]` when it was. */
export function truncateLine(
  line: string,
  maxChars = GREP_MAX_LINE_LENGTH,
): { text: string; wasTruncated: boolean } {
  return line.length <= maxChars
    ? { text: line, wasTruncated: false }
    : { text: `${line.slice(0, maxChars)}... [truncated]`, wasTruncated: true };
}

function truncate(content: string, options: TruncationOptions, end: "head" | "tail"): TruncationResult {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const lines = content.split("\n");
  const totalBytes = byteLength(content);
  const whole: TruncationResult = {
    content,
    truncated: false,
    truncatedBy: null,
    totalLines: lines.length,
    totalBytes,
    outputLines: lines.length,
    outputBytes: totalBytes,
    lastLinePartial: false,
    firstLineExceedsLimit: false,
    maxLines,
    maxBytes,
  };
  if (lines.length <= maxLines && totalBytes <= maxBytes) return whole;
  const cut = (kept: string[], by: "lines" | "bytes", partial = false): TruncationResult => {
    const output = kept.join("\n");
    return {
      ...whole,
      content: output,
      truncated: true,
      truncatedBy: by,
      outputLines: kept.length,
      outputBytes: byteLength(output),
      lastLinePartial: partial,
    };
  };
  if (end === "head" && byteLength(lines[0] ?? "") > maxBytes)
    return { ...cut([], "bytes"), firstLineExceedsLimit: true };
  const kept: string[] = [];
  let used = 0;
  for (let index = 0; index < lines.length && kept.length < maxLines; index += 1) {
    const line = lines[end === "head" ? index : lines.length - 1 - index] ?? "";
    // Each line after the first also takes its newline.
    const cost = byteLength(line) + (kept.length > 0 ? 1 : 0);
    if (used + cost <= maxBytes) {
      kept.push(line);
      used += cost;
      continue;
    }
    if (end === "head") return cut(kept, "bytes");
    return kept.length === 0 ? cut([lastBytes(line, maxBytes)], "bytes", true) : cut(kept.reverse(), "bytes");
  }
  return cut(end === "head" ? kept : kept.reverse(), "lines");
}

/** The end of `line` within `maxBytes`, starting at a whole UTF-8 character. */
function lastBytes(line: string, maxBytes: number): string {
  const encoded = Buffer.from(line, "utf8");
  let start = Math.max(0, encoded.length - maxBytes);
  // A continuation byte (10xxxxxx) is the middle of a character: start after it.
  while (start < encoded.length && ((encoded[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return encoded.subarray(start).toString("utf8");
}
