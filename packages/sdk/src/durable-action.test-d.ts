import { describe, expectTypeOf, it } from "vitest";
import { durableAction } from "./durable-action.js";
import { textResult } from "./results.js";
import type { CustomToolDurableAction, PendingActionHandlers } from "./types/pending-action.js";

const actions = {
  rename: {
    async apply(plan: { from: string; to: string }[]) {
      return textResult(`Renamed ${plan.length}`);
    },
  },
  remove: {
    async apply(paths: string[], reason: string) {
      return textResult(`Removed ${paths.length}: ${reason}`);
    },
  },
} satisfies PendingActionHandlers;

const withReject = {
  rename: {
    async apply(plan: { from: string; to: string }[]) {
      return textResult(`Renamed ${plan.length}`);
    },
    async reject(_plan, reason) {
      return textResult(`Nothing renamed: ${reason}`);
    },
  },
} satisfies PendingActionHandlers;

describe("durableAction", () => {
  it("takes the payload type from apply even when reject leaves its own unannotated", () => {
    expectTypeOf(
      durableAction(withReject, "rename", { label: "x", payload: [{ from: "a", to: "b" }] }).payload,
    ).toEqualTypeOf<{ from: string; to: string }[]>();
    // @ts-expect-error: a number is not a list of moves
    durableAction(withReject, "rename", { label: "x", payload: 12345 });
  });

  it("types the payload by the handler it names", () => {
    const action = durableAction(actions, "rename", { label: "Rename 1", payload: [{ from: "a", to: "b" }] });
    expectTypeOf(action).toEqualTypeOf<CustomToolDurableAction<{ from: string; to: string }[]>>();
    expectTypeOf(durableAction(actions, "remove", { label: "Remove", payload: ["a"] }).payload).toEqualTypeOf<
      string[]
    >();
  });

  it("refuses a handler the actions do not declare, and a payload of another type", () => {
    // @ts-expect-error: no handler "renmae"
    durableAction(actions, "renmae", { label: "x", payload: [] });
    // @ts-expect-error: rename takes moves, not paths
    durableAction(actions, "rename", { label: "x", payload: ["a"] });
  });
});
