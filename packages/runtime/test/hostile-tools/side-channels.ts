import { type AgentToolResult, TooldockError, textResult } from "@tooldock/sdk";
import { expect, vi } from "vitest";
import type { SessionToolContext } from "../../src/session/tool-context.js";
import { deferred, textOf } from "../fake-context.js";
import { faultKinds, type NamedScenario } from "./scenario.js";

type Push = SessionToolContext["pushPendingAction"];
const lateAction = { label: "Late change", apply: async () => textResult("must never apply") };

/** Tools that misuse `onUpdate`, `ctx.pushPendingAction` or their `params`, and hosts whose `onUpdate` fails. */
export const sideChannelScenarios: NamedScenario[] = [
  {
    name: "floods onUpdate with 100k synchronous updates: the host gets one per interval, the newest",
    make: () => {
      const release = deferred<AgentToolResult>();
      return {
        execute: (_id, _params, onUpdate) => {
          for (let index = 0; index < 100_000; index++) onUpdate?.(textResult(`update ${index}`));
          return release.promise;
        },
        drive: async (world) => {
          await world.flush();
          expect(world.updates.map(textOf)).toEqual(["update 0"]);
          await vi.advanceTimersByTimeAsync(50);
          expect(world.updates.map(textOf)).toEqual(["update 0", "update 99999"]);
          await vi.advanceTimersByTimeAsync(500);
          expect(world.updates).toHaveLength(2);
          release.resolve(textResult("flood over"));
        },
        check: (result) => expect(result).toEqual(textResult("flood over")),
      };
    },
  },
  {
    name: "calls onUpdate after its call ended: dropped",
    make: () => {
      let late: (() => void) | undefined;
      return {
        execute: async (_id, _params, onUpdate) => {
          late = () => onUpdate?.(textResult("too late"));
          return textResult("done");
        },
        check: async (result, world) => {
          expect(result).toEqual(textResult("done"));
          late?.();
          await vi.advanceTimersByTimeAsync(1000);
          expect(world.updates).toEqual([]);
        },
      };
    },
  },
  {
    name: "sends a malformed partial result: dropped and reported, never passed to the host",
    make: () => ({
      execute: async (_id, _params, onUpdate) => {
        onUpdate?.({ content: "not an array" } as never);
        return textResult("done");
      },
      check: (result, world) => {
        expect(result).toEqual(textResult("done"));
        expect(world.updates).toEqual([]);
        expect(faultKinds(world)).toEqual(["update-dropped"]);
      },
    }),
  },
  {
    name: "meets a host onUpdate that throws: the call still succeeds",
    make: () => ({
      hostOnUpdate: () => () => {
        throw new Error("host renderer crashed");
      },
      execute: async (_id, _params, onUpdate) => {
        onUpdate?.(textResult("50%"));
        return textResult("done");
      },
      check: (result, world) => {
        expect(result).toEqual(textResult("done"));
        expect(faultKinds(world)).toEqual(["update-listener-failed"]);
        expect(world.faults[0]?.error).toMatchObject({ message: "host renderer crashed" });
      },
    }),
  },
  {
    name: "meets an async host onUpdate that rejects: contained, no unhandled rejection",
    make: () => ({
      hostOnUpdate: () => async () => {
        throw new Error("async host renderer failed");
      },
      execute: async (_id, _params, onUpdate) => {
        onUpdate?.(textResult("50%"));
        return textResult("done");
      },
      check: async (result, world) => {
        expect(result).toEqual(textResult("done"));
        await world.flush();
        expect(world.faults[0]?.error).toMatchObject({ message: "async host renderer failed" });
      },
    }),
  },
  {
    name: "stages a pending action after its call ended: refused with E_CALL_ENDED",
    make: () => {
      let push: Push | undefined;
      return {
        execute: async (_id, _params, _onUpdate, ctx) => {
          push = (ctx as SessionToolContext).pushPendingAction;
          return textResult("previewed nothing");
        },
        check: (_result, world) => {
          let thrown: unknown;
          try {
            push?.(lateAction);
          } catch (error) {
            thrown = error;
          }
          expect(TooldockError.isInstance(thrown) && thrown.code).toBe("E_CALL_ENDED");
          expect((thrown as Error).message).toContain('cannot stage the pending action "Late change"');
          expect(faultKinds(world)).toEqual(["late-push-refused"]);
        },
      };
    },
  },
  {
    name: "ignores the deadline and stages a pending action afterwards: refused",
    make: () => {
      const resume = deferred<void>();
      let outcome: unknown;
      return {
        execute: async (_id, _params, _onUpdate, ctx) => {
          await resume.promise;
          try {
            (ctx as SessionToolContext).pushPendingAction(lateAction);
            outcome = "accepted";
          } catch (error) {
            outcome = (error as TooldockError).code;
          }
          return textResult("too late anyway");
        },
        drive: () => vi.advanceTimersByTimeAsync(1000),
        check: async (result, world) => {
          expect(textOf(result)).toContain("timed out");
          resume.resolve();
          await world.flush();
          expect(outcome).toBe("E_CALL_ENDED");
          expect(faultKinds(world)).toEqual(["late-push-refused", "late-settle"]);
        },
      };
    },
  },
  {
    name: "mutates its params: the host's arguments object is untouched",
    make: () => ({
      execute: async (_id, params) => {
        const mutable = params as { text?: string; list?: string[] };
        mutable.text = "rewritten";
        mutable.list?.push("injected");
        return textResult(JSON.stringify(mutable));
      },
      check: (result, world) => {
        expect(textOf(result)).toBe('{"text":"rewritten","list":["a","injected"]}');
        expect(world.params).toEqual({ text: "hi", list: ["a"] });
      },
    }),
  },
];
