import type { OutputStream } from "../cli-io.js";
import type { Colors } from "./colors.js";
import { displayWidth } from "./table.js";
import { escapeTerminalText } from "./terminal-text.js";

/** A single status line rewritten in place on a terminal (`[3/40] compiling tools/a.ts`). */
export interface ProgressLine {
  update(text: string): void;
  /** Erases the line; call before printing anything else on the same stream. */
  done(): void;
}

/** Prints nothing when the stream is not a terminal, so logs and pipes stay clean. */
export function createProgressLine(stream: OutputStream, colors: Colors): ProgressLine {
  if (!stream.isTTY) return { update: () => undefined, done: () => undefined };
  let shown = false;
  const width = Math.max(20, (stream.columns ?? 80) - 1);
  return {
    update(raw) {
      const text = escapeTerminalText(raw);
      const line = displayWidth(text) > width ? `${[...text].slice(0, width - 1).join("")}…` : text;
      stream.write(`\r\u001b[2K${colors.dim(line)}`);
      shown = true;
    },
    done() {
      if (shown) stream.write("\r\u001b[2K");
      shown = false;
    },
  };
}
