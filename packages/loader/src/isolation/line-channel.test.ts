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
