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

describe("durableAction", () => {
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
