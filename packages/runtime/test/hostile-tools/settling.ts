import { type AgentToolResult, textResult } from "@tooldock/sdk";
import { expect, vi } from "vitest";
import { deferred, textOf } from "../fake-context.js";
import { faultKinds, type NamedScenario } from "./scenario.js";

const TIMED_OUT =
  'Tool "hostile" timed out after 1 s without finishing and was stopped. Its work may be partial: ' +
  "check the current state, then call it again with a smaller task or try another approach.";

/** Tools that settle late, never, or through something that is not a Promise. */
export const settlingScenarios: NamedScenario[] = [
  {
    name: "never settles: answered at the deadline, its signal aborted with a TimeoutError",
    make: () => {
      let signal: AbortSignal | undefined;
      return {
        execute: (_id, _params, _onUpdate, _ctx, toolSignal) => {
          signal = toolSignal;
          return new Promise<AgentToolResult>(() => {});
        },
        drive: async (world) => {
          await vi.advanceTimersByTimeAsync(999);
          expect(world.answered()).toBe(false);
          expect(signal?.aborted).toBe(false);
          await vi.advanceTimersByTimeAsync(1);
        },
        check: (result) => {
          expect(result).toEqual({ content: [{ type: "text", text: TIMED_OUT }], isError: true });
          expect(signal?.aborted).toBe(true);
          expect(signal?.reason).toMatchObject({ name: "TimeoutError" });
        },
      };
    },
  },
  {
    name: "rejects after its call timed out: the late rejection is contained and reported",
    make: () => {
      const late = deferred<AgentToolResult>();
      return {
        execute: () => late.promise,
        drive: () => vi.advanceTimersByTimeAsync(1000),
        check: async (result, world) => {
          expect(textOf(result)).toBe(TIMED_OUT);
          late.reject(new Error("late failure"));
          await world.flush();
          expect(faultKinds(world)).toEqual(["late-settle"]);
          expect(world.faults[0]?.error).toMatchObject({ message: "late failure" });
        },
      };
    },
  },
  {
    name: "ignores its AbortSignal: answered at the host's abort, the late result dropped",
    make: () => {
      const late = deferred<AgentToolResult>();
      return {
        execute: () => late.promise,
        drive: async (world) => world.host.abort(new Error("user pressed stop")),
        check: async (result, world) => {
          expect(result.isError).toBe(true);
          expect(textOf(result)).toMatch(
            /^Tool "hostile" was aborted before it finished \(user pressed stop\)\./,
          );
          late.resolve(textResult("late success"));
          await world.flush();
          expect(faultKinds(world)).toEqual(["late-settle"]);
          expect(world.faults[0]?.error).toBeUndefined();
        },
      };
    },
  },
  {
    name: "is still running when the session's deadline has long passed: the answer does not wait",
    make: () => {
      let calls = 0;
      return {
        options: { executeTimeoutMs: 50 },
        execute: () => {
          calls++;
          return new Promise<AgentToolResult>((resolve) =>
            setTimeout(() => resolve(textResult("x")), 10_000),
          );
        },
        drive: () => vi.advanceTimersByTimeAsync(50),
        check: async (result, world) => {
          expect(textOf(result)).toContain('Tool "hostile" timed out after 50 ms');
          await vi.advanceTimersByTimeAsync(10_000);
          await world.flush();
          expect(calls).toBe(1);
          expect(faultKinds(world)).toEqual(["late-settle"]);
        },
      };
    },
  },
  {
    name: "returns a thenable that is not a Promise: adopted like await",
    make: () => ({
      execute: (() => ({
        // biome-ignore lint/suspicious/noThenProperty: the hostile shape under test
        then(onFulfilled: (value: AgentToolResult) => void) {
          onFulfilled(textResult("from a thenable"));
        },
      })) as never,
      check: (result, world) => {
        expect(result).toEqual(textResult("from a thenable"));
        expect(world.faults).toEqual([]);
      },
    }),
  },
  {
    name: "returns a thenable that fulfils and then rejects: the first settlement wins",
    make: () => ({
      execute: (() => ({
        // biome-ignore lint/suspicious/noThenProperty: the hostile shape under test
        then(onFulfilled: (value: AgentToolResult) => void, onRejected: (error: unknown) => void) {
          onFulfilled(textResult("first"));
          onRejected(new Error("second"));
        },
      })) as never,
      check: (result) => expect(result).toEqual(textResult("first")),
    }),
  },
  {
    name: "returns a thenable whose then throws",
    make: () => ({
      execute: (() => ({
        // biome-ignore lint/suspicious/noThenProperty: the hostile shape under test
        then() {
          throw new Error("then exploded");
        },
      })) as never,
      check: (result) => expect(textOf(result)).toMatch(/^Tool "hostile" failed: then exploded\./),
    }),
  },
];
