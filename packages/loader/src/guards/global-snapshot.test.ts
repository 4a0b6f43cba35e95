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
});
