import { expect } from "vitest";
import { expectFailed, type NamedScenario } from "./scenario.js";

class HostileError extends Error {
  override get message(): string {
    throw new Error("the message getter itself throws");
  }
}

/** A value whose every trap throws: even looking at it fails. */
function untouchable(): object {
  return new Proxy(
    {},
    {
      get: () => {
        throw new Error("get trap");
      },
      getPrototypeOf: () => {
        throw new Error("getPrototypeOf trap");
      },
      has: () => {
        throw new Error("has trap");
      },
      ownKeys: () => {
        throw new Error("ownKeys trap");
      },
    },
  );
}

function throwing(name: string, thrown: () => unknown, shown: string): NamedScenario {
  return {
    name,
    make: () => ({
      execute: async () => {
        throw thrown();
      },
      check: (result) => expectFailed(result, shown),
    }),
  };
}

/** Tools that throw (or reject with) values that are not plain `Error`s. */
export const throwingScenarios: NamedScenario[] = [
  throwing("throws a string", () => "plain failure", "plain failure"),
  throwing("throws null", () => null, "null"),
  throwing("throws undefined", () => undefined, "undefined"),
  throwing("throws a number", () => 42, "42"),
  throwing("throws a plain object", () => ({ code: "E_X", detail: 1 }), '{"code":"E_X","detail":1}'),
  throwing("throws a Symbol", () => Symbol("boom"), "Symbol(boom)"),
  throwing(
    "throws an Error subclass whose message getter throws",
    () => new HostileError(),
    "an unreadable Error",
  ),
  throwing("throws a Proxy whose every trap throws", untouchable, "an unreadable value"),
  throwing(
    "throws a circular object",
    () => {
      const value: Record<string, unknown> = { kind: "loop" };
      value.self = value;
      return value;
    },
    "[object Object]",
  ),
  {
    name: "throws an Error with a 1 MB message: the error result is truncated too",
    make: () => ({
      options: { maxResultChars: 40 },
      execute: async () => {
        throw new Error("x".repeat(1_000_000));
      },
      check: (result) => {
        expect(result.isError).toBe(true);
        expect(result.content).toEqual([
          {
            type: "text",
            text: `Tool "hostile" failed: ${"x".repeat(17)}\n… [truncated 1000063 characters]`,
          },
        ]);
      },
    }),
  },
  {
    name: "throws synchronously from a non-async execute",
    make: () => ({
      execute: () => {
        throw new TypeError("sync fault");
      },
      check: (result) => expectFailed(result, "sync fault"),
    }),
  },
];
