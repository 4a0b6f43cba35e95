import { describe, expect, it } from "vitest";
import { colorEnabled } from "./colors.js";
import { createOutput } from "./output.js";

const tty = { write: () => true, isTTY: true };
const pipe = { write: () => true, isTTY: false };

describe("colorEnabled", () => {
  it("is on for a terminal and off for a pipe", () => {
    expect(colorEnabled(tty, {})).toBe(true);
    expect(colorEnabled(pipe, {})).toBe(false);
  });

  it("is never on with NO_COLOR, even when forced", () => {
    expect(colorEnabled(tty, { NO_COLOR: "1" })).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: "1", FORCE_COLOR: "1" })).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: "" })).toBe(true);
  });

  it("can be forced off a terminal with FORCE_COLOR", () => {
    expect(colorEnabled(pipe, { FORCE_COLOR: "1" })).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: "0" })).toBe(false);
  });
});

describe("createOutput", () => {
  it("prints plain text to a pipe and keeps the progress line off it", () => {
    const written: string[] = [];
    const stream = { write: (chunk: string) => written.push(chunk), isTTY: false };
    const output = createOutput({ stdout: stream, stderr: stream, cwd: "/", env: {} });
    output.print(output.colors.red("plain"));
    const progress = output.progress();
    progress.update("[1/2] loading");
    progress.done();
    expect(written).toEqual(["plain\n"]);
  });

  it("rewrites the progress line in place on a terminal and erases it when done", () => {
    const written: string[] = [];
    const stderr = { write: (chunk: string) => written.push(chunk), isTTY: true, columns: 40 };
    const output = createOutput({ stdout: pipe, stderr, cwd: "/", env: { NO_COLOR: "1" } });
    const progress = output.progress();
    progress.update("[1/2] loaded a.ts");
    progress.update("[2/2] loaded b.ts");
    progress.done();
    expect(written).toEqual(["\r\u001b[2K[1/2] loaded a.ts", "\r\u001b[2K[2/2] loaded b.ts", "\r\u001b[2K"]);
  });
});
