import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session } from "./session.js";
import type { SessionEvent } from "./session-events.js";
import { readAnnotations } from "./tool-annotations.js";
import { validateTool } from "./validate-tool.js";

const tool = (annotations: unknown) => ({
  name: "annotated",
  label: "Annotated",
  description: "A tool with annotations.",
  parameters: Type.Object({}),
  annotations,
  execute: async () => textResult("ran"),
});

describe("readAnnotations", () => {
  it("copies the known keys into a frozen object and lists the unknown ones", () => {
    const original = {
      title: "T",
      readOnlyHint: true,
      openWorldHint: false,
      idempotentHint: undefined,
      colour: "red",
    };
    const reading = readAnnotations(original);
    expect(reading).toEqual({
      annotations: { title: "T", readOnlyHint: true, openWorldHint: false },
      problems: [],
      unknownKeys: ["colour"],
    });
    expect(Object.isFrozen(reading.annotations)).toBe(true);
    original.readOnlyHint = false;
    expect(reading.annotations?.readOnlyHint).toBe(true);
  });

  it.each([
    ["yes", '"annotations" is a string, not an object'],
    [[true], '"annotations" is an array, not an object'],
    [{ readOnlyHint: "yes" }, '"annotations.readOnlyHint" is a string, not a boolean'],
    [{ destructiveHint: 1 }, '"annotations.destructiveHint" is a number, not a boolean'],
    [{ title: false }, '"annotations.title" is a boolean, not a string'],
  ])("refuses %j", (value, problem) => {
    expect(readAnnotations(value).problems).toEqual([problem]);
  });

  it("turns a throwing read into a problem, never a throw", () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no keys");
        },
      },
    );
    expect(readAnnotations(hostile).problems).toEqual(['reading "annotations" threw (no keys)']);
  });
});

describe("annotations through validateTool and Session.register", () => {
  it("keeps valid annotations in the record", () => {
    const checked = validateTool(tool({ readOnlyHint: true }), { path: "m.ts" });
    expect(checked.ok && checked.tool.annotations).toEqual({ readOnlyHint: true });
  });

  it("refuses a hint that is not a boolean with E_INVALID_TOOL naming the key", () => {
    const checked = validateTool(tool({ readOnlyHint: "true" }), { path: "m.ts" });
    expect(checked.ok).toBe(false);
    expect(checked.diagnostics[0]).toMatchObject({
      code: "E_INVALID_TOOL",
      message:
        'Tool "annotated" from m.ts is not a valid tool: "annotations.readOnlyHint" is a string, not a boolean.',
    });
  });

  it("warns about unknown keys (W_UNKNOWN_ANNOTATION) and drops them; a session emits it as tool-warning", () => {
    const checked = validateTool(tool({ readonly: true, openWorldHint: false }), { path: "m.ts" });
    expect(checked.ok && checked.tool.annotations).toEqual({ openWorldHint: false });
    expect(checked.diagnostics).toMatchObject([
      {
        code: "W_UNKNOWN_ANNOTATION",
        severity: "warning",
        message:
          'Tool "annotated" from m.ts has annotations Tooldock does not know ("readonly"); they were dropped.',
      },
    ]);
    const session = new Session();
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    session.register(tool({ readonly: true }) as never, "m.ts");
    expect(events).toMatchObject([
      { type: "tool-warning", code: "W_UNKNOWN_ANNOTATION", toolName: "annotated" },
    ]);
    expect(session.get("annotated")?.annotations).toEqual({});
  });
});
