import { Type } from "@sinclair/typebox";
import { type CustomTool, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session } from "../session.js";
import { argumentsSeen, toolSeesContext, toolSeesSignal } from "./tool-sees-signal.js";

// Functions built from source text so the transform of the test file cannot change them.
// `new Function` code is sloppy mode; these cases wrap it in "use strict" like an ES module.
const strict = (source: string): unknown => new Function(`"use strict"; return (${source});`)();

describe("toolSeesSignal", () => {
  it.each([
    ["two plain parameters (arrow)", "async (id, params) => params"],
    ["four plain parameters", "async (id, params, onUpdate, ctx) => ctx"],
    ["no parameters", "async () => 1"],
    ["one bare arrow parameter", "async id => id"],
    ["a method", "({ async execute(id, params) { return params; } }).execute"],
    ["a function expression", "async function run(id, params) { return params; }"],
  ])("is false for %s", (_name, source) => {
    expect(toolSeesSignal(strict(source))).toBe(false);
  });

  it.each([
    ["five parameters", "async (id, params, onUpdate, ctx, signal) => signal"],
    ["a rest parameter alone", "async (...args) => args[4]"],
    ["a rest parameter after others", "async (id, params, ...rest) => rest[2]"],
    ["a default before the signal", "async (id, params, onUpdate, ctx, signal = undefined) => signal"],
    ["destructured parameters", "async (id, { path }) => path"],
    ["a read of arguments", "function (id) { return arguments[4]; }"],
    ["a bound function", "(async (...args) => args).bind(null)"],
    ["a computed method name", '({ ["exec" + "ute"](id, params) { return params; } })["execute"]'],
  ])("is true for %s", (_name, source) => {
    expect(toolSeesSignal(strict(source))).toBe(true);
  });

  it("is true for a sloppy-mode function, whose arguments another function can read", () => {
    expect(toolSeesSignal(new Function("id", "params", "return params;"))).toBe(true);
  });

  it("is true for a proxy and for a value that is not a function", () => {
    expect(toolSeesSignal(new Proxy(async (_id: string) => 1, {}))).toBe(true);
    expect(toolSeesSignal(undefined)).toBe(true);
  });
});

describe("toolSeesContext", () => {
  it.each([
    ["two plain parameters", "async (id, params) => params", false],
    ["three plain parameters", "async function run(id, params, onUpdate) { return params; }", false],
    ["four plain parameters", "async (id, params, onUpdate, ctx) => ctx", true],
    ["a rest parameter", "async (id, ...rest) => rest[2]", true],
    ["a read of arguments", "function (id) { return arguments[3]; }", true],
  ])("is %s for %s", (_name, source, sees) => {
    expect(toolSeesContext(strict(source))).toBe(sees);
  });

  it("is true for a sloppy-mode function and for a value that is not a function", () => {
    expect(toolSeesContext(new Function("id", "params", "return params;"))).toBe(true);
    expect(toolSeesContext(undefined)).toBe(true);
  });
});

describe("the context a session passes", () => {
  function tool(name: string, execute: CustomTool["execute"]): CustomTool {
    return { name, label: name, description: name, parameters: Type.Object({}), execute };
  }

  it("reaches a tool that declares it or reads arguments", async () => {
    const session = new Session({ cwd: "/repo" });
    const seen: Record<string, unknown> = {};
    session.register(
      tool("declares", async (_id, _params, _onUpdate, ctx) => {
        seen.declares = ctx;
        return textResult("ok");
      }),
    );
    session.register(
      tool("reads_arguments", async function (this: unknown) {
        // biome-ignore lint/complexity/noArguments: the case under test reads arguments
        seen.reads = arguments[3];
        return textResult("ok");
      }),
    );
    for (const name of ["declares", "reads_arguments"])
      await session.execute({ toolCallId: name, name, params: {} });
    expect(seen.declares).toMatchObject({ cwd: "/repo", toolCallId: "declares", toolName: "declares" });
    expect(seen.reads).toMatchObject({ cwd: "/repo", toolCallId: "reads_arguments" });
  });
});

describe("argumentsSeen", () => {
  it("answers as toolSeesSignal and toolSeesContext do, for every kind of execute", () => {
    const kinds: unknown[] = [
      async (_id: string, _params: unknown) => undefined,
      async (_id: string, _params: unknown, _onUpdate: unknown, _ctx: unknown) => undefined,
      async (_id: string, _p: unknown, _u: unknown, _c: unknown, _signal: unknown) => undefined,
      async (...args: unknown[]) => args,
      async function (this: unknown, _id: string) {
        // biome-ignore lint/complexity/noArguments: the case under test
        return arguments.length;
      },
      async (_id: string, _params: unknown, _onUpdate: unknown, ctx = {}) => ctx,
      (() => undefined).bind(undefined),
      "not a function",
    ];
    for (const execute of kinds)
      expect(argumentsSeen(execute), String(execute)).toEqual({
        signal: toolSeesSignal(execute),
        context: toolSeesContext(execute),
      });
  });
});
