import { describe, expect, it } from "vitest";
import { declaresCurrentExecuteOrder, isLegacyExecuteOrder } from "./execute-order.js";

// Sources as real modules write them (compiled by esbuild or jiti, so type annotations are gone).
const legacy: Record<string, unknown> = {
  "a method": {
    async execute(_toolCallId: string, _params: unknown, _signal: unknown, _onUpdate: unknown) {},
  }.execute,
  "signal third, three parameters": async (_id: string, _params: unknown, signal: unknown) => signal,
  "named abortSignal": async function run(_id: string, _p: unknown, abortSignal: unknown) {
    return abortSignal;
  },
  "an unnamed third, onUpdate fourth": async (_id: string, _p: unknown, _: unknown, onUpdate: unknown) =>
    onUpdate,
  "a fifth ctx": async (_id: string, _p: unknown, signal: unknown, _onUpdate: unknown, _ctx: unknown) =>
    signal,
  "a default value with a comma": async (_id: string, p: unknown = { a: 1, b: "(,)" }, signal?: unknown) => [
    p,
    signal,
  ],
};
const current: Record<string, unknown> = {
  "the full current order": async (
    _id: string,
    _p: unknown,
    _onUpdate: unknown,
    _ctx: unknown,
    _signal: unknown,
  ) => undefined,
  "onUpdate third": async (_id: string, _p: unknown, onUpdate: unknown) => onUpdate,
  "unnamed third, ctx fourth": async (_id: string, _p: unknown, _: unknown, ctx: unknown) => ctx,
  "update third, context fourth": async (_id: string, _p: unknown, update: unknown, context: unknown) => [
    update,
    context,
  ],
  "two parameters": async (_id: string, params: unknown) => params,
  "one bare parameter": async (id: unknown) => id,
  "rest parameters": async (...args: unknown[]) => args,
  "destructured third": async (_id: string, _p: unknown, { signal }: { signal: unknown }) => signal,
  "minified names": new Function("e", "t", "n", "r", "return n"),
  "a bound function": ((_id: string, _p: unknown, signal: unknown) => signal).bind(null),
  "a class": new Function(
    "return class Tool { constructor(id, params, signal) { this.signal = signal; } }",
  )(),
  "not a function": { execute: "no" },
};

describe("isLegacyExecuteOrder", () => {
  it.each(Object.entries(legacy))("detects the older order: %s", (_what, execute) => {
    expect(isLegacyExecuteOrder(execute)).toBe(true);
  });
  it.each(Object.entries(current))("never misdetects the current order: %s", (_what, execute) => {
    expect(isLegacyExecuteOrder(execute)).toBe(false);
  });
  it("reads parameter lists with comments and strings", () => {
    const withComments = new Function("id", "params", "/* the abort */ signal", "onUpdate", "return signal");
    expect(isLegacyExecuteOrder(withComments)).toBe(true);
    const ctxWithComment = new Function("id", "params /* ) signal, */", "onUpdate", "ctx", "return ctx");
    expect(isLegacyExecuteOrder(ctxWithComment)).toBe(false);
  });
  it("counts a function whose source cannot be read as current", () => {
    const proxy = new Proxy(async (_a: unknown, _b: unknown, signal: unknown) => signal, {});
    expect(isLegacyExecuteOrder(proxy)).toBe(false);
  });
});

describe("declaresCurrentExecuteOrder", () => {
  const named = [
    "the full current order",
    "onUpdate third",
    "unnamed third, ctx fourth",
    "update third, context fourth",
  ];
  it.each(named)("is true when the names say Tooldock's order: %s", (what) => {
    expect(declaresCurrentExecuteOrder(current[what])).toBe(true);
  });
  it("is true for a signal named fifth alone", () => {
    expect(declaresCurrentExecuteOrder(new Function("a", "b", "c", "d", "abortSignal", "return c"))).toBe(
      true,
    );
  });
  it.each(Object.entries(legacy))("is false for the older order: %s", (_what, execute) => {
    expect(declaresCurrentExecuteOrder(execute)).toBe(false);
  });
  it.each(Object.entries(current).filter(([what]) => !named.includes(what)))(
    "is false when the names do not say: %s",
    (_what, execute) => {
      expect(declaresCurrentExecuteOrder(execute)).toBe(false);
    },
  );
  it("is false for names that do not say the order: (id, params, sig, cb, ctx)", () => {
    expect(declaresCurrentExecuteOrder(new Function("id", "params", "sig", "cb", "ctx", "return sig"))).toBe(
      false,
    );
  });
});
