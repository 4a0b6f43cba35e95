import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readLines } from "./line-channel.js";

describe("readLines", () => {
  it("joins lines split across chunks and splits chunks holding several", () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    readLines(stream, 100, { line: (text) => lines.push(text), overflow: () => lines.push("overflow") });
    stream.write('{"a":');
    stream.write('1}\n{"b":2}\n{"c"');
    stream.write(":3}\n");
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it("stops at a line longer than its cap, holding no more of it (a peer that floods)", () => {
    const stream = new PassThrough();
    const seen: string[] = [];
    readLines(stream, 10, { line: (text) => seen.push(text), overflow: () => seen.push("overflow") });
    stream.write("short\n");
    stream.write("x".repeat(6));
    stream.write("x".repeat(6));
    stream.write("more\n");
    expect(seen).toEqual(["short", "overflow"]);
    expect(stream.destroyed).toBe(true);
  });
});

// Found by a review of the tool host's output: a module's own bytes on the tool host's stdout
// that never end their line (a progress bar redrawn with `\r`) were held until a `\n`: shown
// to the host only with the next message, and past MAX_LINE_BYTES the tool host was stopped
// for "a message longer than" the cap, though it had sent none.
describe("readLines with loose text before the mark", () => {
  function reader(max: number) {
    const stream = new PassThrough();
    const seen: string[] = [];
    readLines(stream, max, {
      line: (text, continued) => seen.push(`${continued ? "…" : ""}line:${text}`),
      overflow: () => seen.push("overflow"),
      loose: (text) => seen.push(`loose:${text}`),
    });
    return { stream, seen };
  }

  it("hands on a progress bar that never ends its line, however long it runs", () => {
    const { stream, seen } = reader(10);
    for (let step = 0; step < 20; step += 1) stream.write(`\rstep ${step}`);
    expect(seen).toHaveLength(20);
    expect(seen.at(-1)).toBe("loose:\rstep 19");
    expect(stream.destroyed).toBe(false);
  });

  it("holds a message from its mark, and says the line's start went before", () => {
    const { stream, seen } = reader(100);
    stream.write("\r50%");
    stream.write('\r100%\u001e{"t":');
    stream.write('"pong"}\n');
    expect(seen).toEqual(["loose:\r50%", "loose:\r100%", '…line:\u001e{"t":"pong"}']);
  });

  it("never splits a character between two chunks", () => {
    const { stream, seen } = reader(100);
    const bytes = Buffer.from("día 🎉");
    stream.write(bytes.subarray(0, 2)); // "d" and the first byte of "í"
    stream.write(bytes.subarray(2, 7)); // the rest of "í", "a", " " and the first byte of "🎉"
    stream.write(bytes.subarray(7));
    expect(seen).toEqual(["loose:d", "loose:ía ", "loose:🎉"]);
  });

  it("still stops a message longer than its cap", () => {
    const { stream, seen } = reader(10);
    stream.write("ok\u001e");
    stream.write("x".repeat(20));
    expect(seen).toEqual(["loose:ok", "overflow"]);
  });
});
