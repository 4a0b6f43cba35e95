import { describe, expect, it } from "vitest";
import { copyParams } from "./copy-params.js";

describe("copyParams", () => {
  it("deep-copies JSON arguments into fresh objects and arrays", () => {
    const params = {
      path: "a.ts",
      ops: [{ pat: "x", out: "y" }],
      flags: [true, null, 1.5],
      nested: { n: -0 },
    };
    const copy = copyParams(params) as typeof params;
    expect(copy).toStrictEqual(params);
    expect(copy).not.toBe(params);
    expect(copy.ops).not.toBe(params.ops);
    expect(copy.ops[0]).not.toBe(params.ops[0]);
    expect(Object.is(copy.nested.n, -0)).toBe(true);
  });

  it('keeps a "__proto__" key as an own property, as JSON.parse makes it', () => {
    const params = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = copyParams(params) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toStrictEqual({ polluted: true });
  });

  it("copies other cloneable values as structuredClone does, cycles and dates included", () => {
    const holes = [1, 2, 3];
    delete holes[1];
    const params: Record<string, unknown> = { when: new Date(0), holes };
    params.self = params;
    const copy = copyParams(params) as Record<string, unknown>;
    expect(copy.self).toBe(copy);
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when).not.toBe(params.when);
    expect(1 in (copy.holes as unknown[])).toBe(false);
  });

  it("passes a value structuredClone refuses as is", () => {
    const params = { callback: () => 1 };
    expect(copyParams(params)).toBe(params);
  });

  it("gives a null-prototype object Object.prototype, like structuredClone", () => {
    const params = Object.assign(Object.create(null) as object, { a: 1 });
    expect(Object.getPrototypeOf(copyParams(params))).toBe(Object.prototype);
  });

  it("reads each getter once and copies the value it gave", () => {
    let reads = 0;
    const params = {
      get path() {
        reads++;
        return reads === 1 ? { file: "a.ts" } : { file: "other.ts" };
      },
    };
    const copy = copyParams(params) as { path: { file: string } };
    expect(reads).toBe(1);
    expect(Object.getOwnPropertyDescriptor(copy, "path")?.value).toStrictEqual({ file: "a.ts" });
  });

  it("copies symbol-keyed properties as they are (JSON has none)", () => {
    const key = Symbol("host");
    const shared = { n: 1 };
    const copy = copyParams({ a: { b: 1 }, [key]: shared }) as Record<PropertyKey, unknown>;
    expect(copy.a).toStrictEqual({ b: 1 });
    expect(copy[key]).toBe(shared);
  });

  it("leaves out enumerable properties inherited from a tampered Object.prototype", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.injected = Object.assign(Object.create(null) as object, { admin: true });
    proto.injectedCall = () => "x";
    try {
      const copy = copyParams({ path: "a.ts", nested: { n: 1 } }) as Record<string, unknown>;
      expect(Object.keys(copy)).toEqual(["path", "nested"]);
      expect(Object.hasOwn(copy, "injected")).toBe(false);
      expect(Object.hasOwn(copy.nested as object, "injected")).toBe(false);
      expect(copy).toStrictEqual({ path: "a.ts", nested: { n: 1 } });
    } finally {
      delete proto.injected;
      delete proto.injectedCall;
    }
  });
});
