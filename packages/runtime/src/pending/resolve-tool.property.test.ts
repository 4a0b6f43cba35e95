import { textResult } from "@tooldock/sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fakeContext, textOf } from "../../test/fake-context.js";
import { PendingActionStore } from "./pending-action-store.js";
import { createResolveTool } from "./resolve-tool.js";

type Command = "push" | "apply-ok" | "apply-throw" | "discard" | "reject-throw" | "resolve-on-empty";

const command = fc.constantFrom<Command>(
  "push",
  "apply-ok",
  "apply-throw",
  "discard",
  "reject-throw",
  "resolve-on-empty",
);

/**
 * Random sequences of push / apply / discard against a plain array model. The callbacks
 * record which action they ran for, so the test can see whether resolve took the newest one.
 */
async function runScenario(commands: Command[]): Promise<void> {
  let next = 0;
  const store = new PendingActionStore({ createId: () => `id-${++next}` });
  const resolve = createResolveTool(store);
  const model: string[] = []; // bottom first, like the stack
  const appliedCount = new Map<string, number>();
  const discarded = new Set<string>();
  const calls: string[] = [];
  let applyThrows = false;
  let rejectThrows = false;

  for (const step of commands) {
    if (step === "push") {
      const record = store.push({
        label: `action ${next + 1}`,
        apply: async () => {
          calls.push(record.id);
          if (applyThrows) throw new Error("apply exploded");
          appliedCount.set(record.id, (appliedCount.get(record.id) ?? 0) + 1);
          return textResult("ok");
        },
        reject: async () => {
          calls.push(record.id);
          if (rejectThrows) throw new Error("reject exploded");
          return undefined;
        },
      });
      model.push(record.id);
    } else if (step === "resolve-on-empty") {
      // Discard down to an empty stack, then both resolve actions must find nothing.
      while (model.length > 0) {
        rejectThrows = false;
        await resolve.execute("drain", { action: "discard", reason: "drain" }, undefined, fakeContext());
        discarded.add(model.pop() as string);
      }
      calls.length = 0;
      for (const action of ["apply", "discard"] as const) {
        const result = await resolve.execute("empty", { action, reason: "r" }, undefined, fakeContext());
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe("No pending action to resolve. Nothing to apply or discard.");
      }
      expect(calls).toEqual([]); // no callback runs for a resolve on an empty stack
    } else {
      applyThrows = step === "apply-throw";
      rejectThrows = step === "reject-throw";
      const action = step === "apply-ok" || step === "apply-throw" ? "apply" : "discard";
      const top = model.at(-1);
      calls.length = 0;
      const result = await resolve.execute("call", { action, reason: "r" }, undefined, fakeContext());
      if (top === undefined) {
        expect(textOf(result)).toBe("No pending action to resolve. Nothing to apply or discard.");
        expect(calls).toEqual([]);
      } else {
        // Resolve always acts on the newest pending action, and only on it.
        expect(calls).toEqual([top]);
        if (step === "apply-throw") {
          expect(result.isError).toBe(true);
          expect(store.peek()?.id).toBe(top); // same id back on top
        } else {
          model.pop();
          if (action === "discard") discarded.add(top);
        }
      }
    }
    // An action leaves the stack only by a successful apply or a discard.
    expect(store.list().map((record) => record.id)).toEqual([...model].reverse());
    for (let id = 1; id <= next; id++) {
      const key = `id-${id}`;
      const applied = appliedCount.get(key) ?? 0;
      expect(applied).toBeLessThanOrEqual(1); // applied successfully at most once
      const onStack = model.includes(key);
      expect(onStack ? applied === 0 && !discarded.has(key) : applied === 1 || discarded.has(key)).toBe(true);
    }
  }
}

describe("resolve (property)", () => {
  it("keeps every invariant over random push / apply / discard sequences", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 40 }), (commands) => runScenario(commands)),
      { numRuns: 1000 },
    );
  });
});
