import { describe, expect, it } from "vitest";
import { toolSeesSignal } from "./tool-sees-signal.js";

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
