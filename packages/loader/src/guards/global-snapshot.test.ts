import { describe, expect, it } from "vitest";
import { describeGlobalChanges, watchGlobals } from "./global-snapshot.js";

describe("watchGlobals", () => {
  it("reports nothing when nothing changed", () => {
    expect(watchGlobals()()).toEqual([]);
  });

  it("restores a replaced prototype member and a removed global", () => {
    const includes = Array.prototype.includes;
    const structured = globalThis.structuredClone;
    const check = watchGlobals();
    Array.prototype.includes = () => true;
    Reflect.deleteProperty(globalThis, "structuredClone");
    const changes = check();
    expect(Array.prototype.includes).toBe(includes);
    expect(globalThis.structuredClone).toBe(structured);
    expect(describeGlobalChanges(changes)).toBe(
      "Array.prototype.includes (replaced, restored), globalThis.structuredClone (removed, restored)",
    );
  });

  it("removes an enumerable addition to a built-in prototype and keeps a non-enumerable one", () => {
    const check = watchGlobals();
    (Object.prototype as Record<string, unknown>).corpusPolluted = 1;
    Object.defineProperty(Array.prototype, "corpusPolyfill", { value: () => 1, configurable: true });
    try {
      const changes = check();
      expect(Object.hasOwn(Object.prototype, "corpusPolluted")).toBe(false);
      expect(Object.hasOwn(Array.prototype, "corpusPolyfill")).toBe(true);
      expect(describeGlobalChanges(changes)).toBe(
        "Object.prototype.corpusPolluted (added, removed), Array.prototype.corpusPolyfill (added, kept)",
      );
    } finally {
      Reflect.deleteProperty(Array.prototype, "corpusPolyfill");
      Reflect.deleteProperty(Object.prototype, "corpusPolluted");
    }
  });

  it("finds an addition that replaces a removal (same number of keys) and one after a clean check", () => {
    const hypot = Math.hypot;
    const check = watchGlobals();
    try {
      expect(check()).toEqual([]);
      Reflect.deleteProperty(Math, "hypot");
      (Math as unknown as Record<string, unknown>).corpusHypot = hypot;
      expect(describeGlobalChanges(check())).toBe(
        "Math.hypot (removed, restored), Math.corpusHypot (added, kept)",
      );
      expect(Math.hypot).toBe(hypot);
      // Kept additions are part of the next comparison's state; a later addition is still found.
      expect(check()).toEqual([]);
      (Math as unknown as Record<string, unknown>).corpusLater = 1;
      expect(describeGlobalChanges(check())).toBe("Math.corpusLater (added, kept)");
    } finally {
      Reflect.deleteProperty(Math, "corpusHypot");
      Reflect.deleteProperty(Math, "corpusLater");
    }
  });

  it("reports an added process listener and keeps it", () => {
    const listener = () => {};
    const check = watchGlobals();
    process.on("uncaughtException", listener);
    try {
      expect(check()).toEqual([
        { name: 'process listener "uncaughtException"', change: "added", restored: false },
      ]);
    } finally {
      process.off("uncaughtException", listener);
    }
  });

  it("restores Reflect and Object.is when a module replaced them with functions that throw", () => {
    const check = watchGlobals();
    const originals = { descriptor: Reflect.getOwnPropertyDescriptor, is: Object.is };
    const hostile = () => {
      throw new Error("hostile");
    };
    Reflect.getOwnPropertyDescriptor = hostile;
    Object.is = hostile;
    let changes: ReturnType<typeof check>;
    try {
      changes = check();
    } finally {
      Reflect.getOwnPropertyDescriptor = originals.descriptor;
      Object.is = originals.is;
    }
    expect(describeGlobalChanges(changes)).toBe(
      "Object.is (replaced, restored), Reflect.getOwnPropertyDescriptor (replaced, restored)",
    );
  });
});
