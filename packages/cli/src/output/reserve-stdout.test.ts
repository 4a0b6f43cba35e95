import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { reserveStdout } from "./reserve-stdout.js";

function collect(stream: PassThrough): () => string {
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  return () => text;
}

describe("reserveStdout", () => {
  it("sends other writers to stderr while the protocol keeps stdout, until released", () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out = collect(stdout);
    const err = collect(stderr);
    const reserved = reserveStdout(stdout, stderr);
    stdout.write("a tool's console.log\n");
    reserved.protocol.write('{"jsonrpc":"2.0"}\n');
    reserved.release();
    stdout.write("after release\n");
    expect(out()).toBe('{"jsonrpc":"2.0"}\nafter release\n');
    expect(err()).toBe("a tool's console.log\n");
  });

  it("gives the protocol the stream's events, so backpressure (drain) still works", async () => {
    const stdout = new PassThrough({ highWaterMark: 1 });
    const reserved = reserveStdout(stdout, new PassThrough());
    expect(reserved.protocol.write("more than one byte")).toBe(false);
    const drained = new Promise<void>((resolve) => reserved.protocol.once("drain", resolve));
    stdout.resume();
    await drained;
    expect(stdout.writableNeedDrain).toBe(false);
    reserved.release();
  });
});
