import { readFileSync } from "node:fs";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Type } from "@sinclair/typebox";
import { type CustomTool, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { textOf } from "../../../test/fake-context.js";
import { Session } from "../session.js";
import type { SessionEvent } from "../session-events.js";
import { MAX_ERROR_MESSAGE_CHARS } from "./tool-call-error.js";

const thisFile = fileURLToPath(import.meta.url);
const source = readFileSync(thisFile, "utf8").split("\n");
/** The 1-based line of this file that holds `marker` (in a comment beside the throw). */
const lineOf = (marker: string) => source.findIndex((line) => line.includes(`// ${marker}`)) + 1;

function tool(name: string, execute: CustomTool["execute"]): CustomTool {
  return { name, label: name, description: name, parameters: Type.Object({}), execute };
}

/** Runs one call of `target` registered from `origin`; returns the result and its `tool-call-end`. */
async function callEnd(target: CustomTool, origin: string | null = thisFile) {
  const session = new Session({ executeTimeoutMs: 5_000 });
  session.register(target, origin ?? undefined);
  const events: SessionEvent[] = [];
  session.subscribe((event) => events.push(event));
  const result = await session.execute({ toolCallId: "t1", name: target.name, params: {} });
  await session.dispose();
  const end = events.find((event) => event.type === "tool-call-end");
  if (end?.type !== "tool-call-end") throw new Error("no tool-call-end");
  return { result, end };
}

describe("tool-call-end error", () => {
  it("carries a synchronous throw's message, name, stack and the tool's own line", async () => {
    const boom = tool("boom", () => {
      throw new TypeError("disk full"); // THROW-SYNC
    });
    const { result, end } = await callEnd(boom);
    expect(textOf(result)).toBe(
      'Tool "boom" failed: disk full. Check the arguments and the current state, then retry or try another approach.',
    );
    expect(end.error).toMatchObject({ message: "disk full", name: "TypeError" });
    expect(end.error?.stack).toMatch(/^TypeError: disk full\n\s+at /);
    expect(end.error?.location).toEqual({
      file: thisFile,
      line: lineOf("THROW-SYNC"),
      column: expect.any(Number),
    });
  });

  it("carries a rejection after an await, located at the tool's line", async () => {
    const later = tool("later", async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const error = new Error("remote said no"); // THROW-ASYNC
      Object.assign(error, { code: "E_REMOTE" });
      throw error;
    });
    const { result, end } = await callEnd(later);
    expect(textOf(result)).toMatch(/^Tool "later" failed: remote said no\. /);
    expect(end.error).toMatchObject({ message: "remote said no", name: "Error", code: "E_REMOTE" });
    expect(end.error?.location?.line).toBe(lineOf("THROW-ASYNC"));
  });

  it("locates the tool's frame when the throw comes from code outside its file", async () => {
    const parse = tool("parse", () => JSON.parse("{ not json")); // THROW-CALLER
    const { end } = await callEnd(parse);
    expect(end.error?.name).toBe("SyntaxError");
    expect(end.error?.location?.line).toBe(lineOf("THROW-CALLER"));
  });

  it("matches a relative origin against the end of the frame's path", async () => {
    const boom = tool("boom", () => {
      throw new Error("relative"); // THROW-RELATIVE
    });
    const { end } = await callEnd(boom, "execute/tool-call-error.test.ts");
    expect(end.error?.location).toMatchObject({ file: thisFile, line: lineOf("THROW-RELATIVE") });
  });

  it("matches a frame in the real file of an origin reached through a symbolic link", async () => {
    const folder = await mkdtemp(join(tmpdir(), "tooldock-error-location-"));
    try {
      const real = join(folder, "real.ts");
      await writeFile(real, "export {};\n");
      await symlink(real, join(folder, "link.ts"));
      const error = new Error("linked");
      error.stack = `Error: linked\n    at lib (/lib/x.js:1:1)\n    at execute (${real}:4:2)`;
      const { end } = await callEnd(
        tool("linked", () => {
          throw error;
        }),
        join(folder, "link.ts"),
      );
      expect(end.error?.location).toEqual({ file: real, line: 4, column: 2 });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("has a stack but no location when the tool was registered without a file", async () => {
    const { end } = await callEnd(
      tool("boom", () => {
        throw new Error("no origin");
      }),
      null,
    );
    expect(end.error?.stack).toContain("no origin");
    expect(end.error?.location).toBeUndefined();
  });

  it.each([
    ["a string", "plain words", { message: "plain words" }],
    ["null", null, { message: "null" }],
    ["a number", 42, { message: "42" }],
    ["a symbol", Symbol("odd"), { message: "Symbol(odd)" }],
    ["a plain object with a code", { message: "quota", code: 429 }, { message: "quota", code: "429" }],
  ])("reads %s thrown as the message only, like the model's text", async (_kind, thrown, expected) => {
    const { result, end } = await callEnd(
      tool("odd", () => {
        throw thrown;
      }),
    );
    expect(end.error).toEqual(expected);
    expect(textOf(result)).toContain(`failed: ${expected.message}.`);
  });

  it("is JSON-safe: plain strings and numbers that survive a round trip", async () => {
    const { end } = await callEnd(
      tool("boom", () => {
        throw Object.assign(new RangeError("out of range"), { code: "E_RANGE", extra: { big: 1n } });
      }),
    );
    expect(JSON.parse(JSON.stringify(end.error))).toEqual(end.error);
  });

  it("caps the message in the event but keeps the model's text as before", async () => {
    const long = "x".repeat(MAX_ERROR_MESSAGE_CHARS + 500);
    const { result, end } = await callEnd(
      tool("long", () => {
        throw new Error(long);
      }),
    );
    expect(end.error?.message).toBe(`${"x".repeat(MAX_ERROR_MESSAGE_CHARS)}… [truncated 500 characters]`);
    expect(textOf(result)).toContain(long);
  });

  it("is absent when the tool did not throw: an error result it returned, bad arguments, a timeout", async () => {
    const refused = tool("refuses", async () => ({ ...textResult("no such file"), isError: true }));
    expect((await callEnd(refused)).end.error).toBeUndefined();

    const session = new Session({ executeTimeoutMs: 20 });
    session.register(
      tool("stalls", () => new Promise(() => {})),
      thisFile,
    );
    session.register(
      { ...tool("strict", async () => textResult("ok")), parameters: Type.Object({ n: Type.Number() }) },
      thisFile,
    );
    const ends: SessionEvent[] = [];
    session.subscribe((event) => {
      if (event.type === "tool-call-end") ends.push(event);
    });
    const timedOut = await session.execute({ toolCallId: "a", name: "stalls", params: {} });
    const invalid = await session.execute({ toolCallId: "b", name: "strict", params: { n: "1" } });
    await session.dispose();
    expect([timedOut.isError, invalid.isError]).toEqual([true, true]);
    expect(ends.map((event) => "error" in event)).toEqual([false, false]);
  });
});
