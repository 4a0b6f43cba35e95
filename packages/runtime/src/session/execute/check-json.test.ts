import { describe, expect, it } from "vitest";
import { assertJsonSerializable, copyPlainData, NOT_PLAIN } from "./check-json.js";

function throwsOn(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}

const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;
const throwingGetter = {
  get broken(): never {
    throw new Error("getter failed");
  },
};

describe("assertJsonSerializable", () => {
  it.each([
    [
      "plain data",
      { action: "apply", id: "x", n: [1, 2.5, null, true], nested: { s: Symbol("s"), u: undefined } },
    ],
    ["a null-prototype object", Object.assign(Object.create(null) as object, { a: 1 })],
    ["a cycle", cyclic],
    ["a nested BigInt", { list: [1n] }],
    ["a throwing getter", throwingGetter],
    [
      "a throwing toJSON",
      {
        inner: {
          toJSON: () => {
            throw new Error("toJSON failed");
          },
        },
      },
    ],
    ["a Date and a Map", { when: new Date(0), map: new Map([[1, 2]]) }],
    [
      "a function with a throwing toJSON",
      {
        f: Object.assign(() => 1, {
          toJSON: () => {
            throw new Error("f failed");
          },
        }),
      },
    ],
    ["deep nesting", JSON.parse(`${"[".repeat(150)}1${"]".repeat(150)}`) as unknown],
  ])("throws exactly what JSON.stringify throws for %s", (_name, value) => {
    expect(throwsOn(() => assertJsonSerializable(value))).toBe(throwsOn(() => JSON.stringify(value)));
  });
});

describe("copyPlainData", () => {
  it("copies plain data into fresh objects and arrays with the same JSON", () => {
    const value = { a: [1, { b: "x" }, null], c: { d: true } };
    const copy = copyPlainData(value) as typeof value;
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
    expect(copy.a).not.toBe(value.a);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });

  it.each([
    ["a nested BigInt", { list: [1n] }],
    ["a Date", { when: new Date(0) }],
    ["a toJSON", { inner: { toJSON: () => 1 } }],
    ["a function", { f: () => 1 }],
    ["a cycle", cyclic],
  ])("answers NOT_PLAIN for %s", (_name, value) => {
    expect(copyPlainData(value)).toBe(NOT_PLAIN);
  });
});
