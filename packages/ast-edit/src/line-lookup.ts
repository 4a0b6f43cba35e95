/**
 * The indentation and line break of the line holding an index of `source`, for indices
 * asked in increasing order (as matches come): each question scans only text no earlier one
 * scanned, so a rewrite of a file of one very long line stays linear. An index lower than the
 * previous one is answered too, by scanning again.
 */
export class LineLookup {
  /** The text looked up. */
  readonly source: string;
  /** The last index asked, the start of its line, and the first newline at or after it (-1: none). */
  #index = -1;
  #lineStart = 0;
  #nextNewline = -1;
  #indentation: string | undefined;

  constructor(source: string) {
    this.source = source;
  }

  /** The spaces and tabs that start the line holding `index`, up to `index`. */
  indentation(index: number): string {
    this.#moveTo(index);
    if (this.#indentation === undefined) {
      let end = this.#lineStart;
      while (this.source[end] === " " || this.source[end] === "\t") end++;
      this.#indentation = this.source.slice(this.#lineStart, end);
    }
    // The line's indentation may run past `index` only when `index` is inside it.
    return this.#indentation.length > index - this.#lineStart
      ? this.#indentation.slice(0, index - this.#lineStart)
      : this.#indentation;
  }

  /** `\r\n` when the line holding `index` ends so (the last line: when the line before it does), else `\n`. */
  lineBreak(index: number): string {
    this.#moveTo(index);
    const newline = this.#nextNewline !== -1 ? this.#nextNewline : this.#lineStart - 1;
    return newline > 0 && this.source[newline - 1] === "\r" ? "\r\n" : "\n";
  }

  #moveTo(index: number): void {
    if (index === this.#index) return;
    const sameLine =
      this.#index !== -1 && index > this.#index && (this.#nextNewline === -1 || index <= this.#nextNewline);
    this.#index = index;
    if (sameLine) return;
    this.#lineStart = index === 0 ? 0 : this.source.lastIndexOf("\n", index - 1) + 1;
    this.#nextNewline = this.source.indexOf("\n", index);
    this.#indentation = undefined;
  }
}
