import { Type } from "@sinclair/typebox";
import { type AgentToolResult, type CustomToolPendingAction, textResult } from "@tooldock/sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fakeContext, textOf } from "../../test/fake-context.js";
import { copyBlock } from "../session/execute/read-result.js";
import { Session } from "../session/session.js";
import type { PendingPolicy } from "../session/session-options.js";
import type { SessionToolContext } from "../session/tool-context.js";
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

// ---------------------------------------------------------------------------------------
// Hostile actions through a Session: getters, proxies and values that change between reads.
// `session.execute` must never reject, every result must be well-formed, and every record
// must keep what push read, once.
// ---------------------------------------------------------------------------------------

type PushKind =
  | "plain"
  | "label-turns-symbol"
  | "proxy-varying"
  | "proxy-throwing"
  | "label-symbol"
  | "details-cycle"
  | "details-bigint"
  | "details-throwing-tojson"
  | "details-mutated-after-push"
  | "apply-getter-flips"
  | "source-getter-flips";
type ApplyMode = "ok" | "throw" | "hostile-result" | "is-error-flips";
type SessionCommand =
  | { kind: "stage"; push: PushKind; via: "ctx" | "store"; apply: ApplyMode }
  | { kind: "resolve"; action: "apply" | "discard" }
  | { kind: "other" };

const REFUSED: ReadonlySet<PushKind> = new Set<PushKind>([
  "proxy-throwing",
  "label-symbol",
  "details-cycle",
  "details-bigint",
  "details-throwing-tojson",
]);

const sessionCommand: fc.Arbitrary<SessionCommand> = fc.oneof(
  fc.record({
    kind: fc.constant("stage" as const),
    push: fc.constantFrom<PushKind>(
      "plain",
      "label-turns-symbol",
      "proxy-varying",
      "proxy-throwing",
      "label-symbol",
      "details-cycle",
      "details-bigint",
      "details-throwing-tojson",
      "details-mutated-after-push",
      "apply-getter-flips",
      "source-getter-flips",
    ),
    via: fc.constantFrom<"ctx" | "store">("ctx", "store"),
    apply: fc.constantFrom<ApplyMode>("ok", "throw", "hostile-result", "is-error-flips"),
  }),
  fc.record({
    kind: fc.constant("resolve" as const),
    action: fc.constantFrom<"apply" | "discard">("apply", "discard"),
  }),
  fc.record({ kind: fc.constant("other" as const) }),
);

/** A value whose every read gives the next of `values`, the last one forever. */
function reads(values: unknown[]): () => unknown {
  let index = 0;
  return () => values[Math.min(index++, values.length - 1)];
}

const throwingProxy = new Proxy(
  {},
  {
    get() {
      throw new Error("trap exploded");
    },
    has() {
      throw new Error("trap exploded");
    },
    ownKeys() {
      throw new Error("trap exploded");
    },
    getPrototypeOf() {
      throw new Error("trap exploded");
    },
  },
);

function applyFor(mode: ApplyMode, onApply: () => void): () => Promise<unknown> {
  return async () => {
    onApply();
    if (mode === "throw") throw new Error("apply exploded");
    // Not a thenable (so the apply fulfils), but every other read throws.
    if (mode === "hostile-result")
      return new Proxy(
        {},
        {
          get(_target, key) {
            if (key === "then") return undefined;
            throw new Error("result trap exploded");
          },
        },
      );
    if (mode === "is-error-flips") {
      const isError = reads([false, true]);
      return {
        content: [{ type: "text", text: "applied" }],
        get isError() {
          return isError();
        },
      };
    }
    return textResult("applied");
  };
}

/** The action to push, and the label its record must keep (undefined: the push is refused). */
function hostileAction(
  kind: PushKind,
  label: string,
  apply: () => Promise<unknown>,
): { action: unknown; label: string | undefined; details?: unknown; mutate?: () => void } {
  const base = { apply, reject: async () => undefined };
  switch (kind) {
    case "plain":
      return { action: { ...base, label, details: { n: 1 } }, label, details: { n: 1 } };
    case "label-turns-symbol": {
      const next = reads([label, label, Symbol("gotcha")]);
      return {
        action: {
          ...base,
          get label() {
            return next();
          },
        },
        label,
      };
    }
    case "proxy-varying": {
      const labels = reads([label, Symbol("second read"), 42]);
      const details = reads([{ first: true }, 10n, { second: true }]);
      const action = new Proxy(base, {
        get(target, key, receiver) {
          if (key === "label") return labels();
          if (key === "details") return details();
          return Reflect.get(target, key, receiver);
        },
      });
      return { action, label, details: { first: true } };
    }
    case "proxy-throwing":
      return { action: throwingProxy, label: undefined };
    case "label-symbol":
      return { action: { ...base, label: Symbol(label) }, label: undefined };
    case "details-cycle": {
      const details: Record<string, unknown> = {};
      details.self = details;
      return { action: { ...base, label, details }, label: undefined };
    }
    case "details-bigint":
      return { action: { ...base, label, details: { big: 1n } }, label: undefined };
    case "details-throwing-tojson":
      return {
        action: {
          ...base,
          label,
          details: {
            toJSON() {
              throw new Error("toJSON exploded");
            },
          },
        },
        label: undefined,
      };
    case "details-mutated-after-push": {
      const details = { files: ["a.ts"] };
      return {
        action: { ...base, label, details },
        label,
        details: { files: ["a.ts"] },
        mutate: () => {
          details.files.push("b.ts");
        },
      };
    }
    case "apply-getter-flips": {
      const next = reads([apply, "not a function"]);
      return {
        action: {
          label,
          get apply() {
            return next();
          },
        },
        label,
      };
    }
    case "source-getter-flips": {
      const next = reads(["stager", 7]);
      return {
        action: {
          ...base,
          label,
          get sourceToolName() {
            return next();
          },
        },
        label,
      };
    }
  }
}

type HostilePush = ReturnType<typeof hostileAction>;

function assertWellFormed(result: AgentToolResult): void {
  expect(Array.isArray(result.content)).toBe(true);
  for (const block of result.content) {
    expect(copyBlock(block)).toEqual(block);
  }
}

async function runSessionScenario(policy: PendingPolicy, commands: SessionCommand[]): Promise<void> {
  let next = 0;
  const store = new PendingActionStore({ createId: () => `id-${++next}` });
  const session = new Session({ pending: store, pendingPolicy: policy });
  const stageSpecs: Array<Extract<SessionCommand, { kind: "stage" }>> = [];
  const model: Array<{ id: string; label: string; details: unknown }> = []; // bottom first
  const applied: string[] = [];
  let lastPush: HostilePush | undefined;
  const stageAction = (spec: Extract<SessionCommand, { kind: "stage" }>) => {
    const label = `action ${stageSpecs.length - 1}`;
    lastPush = hostileAction(
      spec.push,
      label,
      applyFor(spec.apply, () => applied.push(label)),
    );
    return lastPush;
  };
  session.register({
    name: "stage",
    label: "Stage",
    description: "stages the next scripted action",
    parameters: Type.Object({}),
    async execute(_id, _params, _onUpdate, ctx) {
      const spec = stageSpecs.at(-1) as Extract<SessionCommand, { kind: "stage" }>;
      const record = (ctx as SessionToolContext).pushPendingAction(
        stageAction(spec).action as CustomToolPendingAction,
      );
      return textResult(`staged ${record.id}`);
    },
  });
  session.register({
    name: "other",
    label: "Other",
    description: "any other tool",
    parameters: Type.Object({}),
    execute: async () => textResult("other ran"),
  });

  for (const command of commands) {
    let result: AgentToolResult | undefined;
    if (command.kind === "stage") {
      stageSpecs.push(command);
      const blocked = policy === "block" && model.length > 0;
      lastPush = undefined;
      let refusal: unknown;
      if (command.via === "ctx") {
        result = await session.execute({ toolCallId: "s", name: "stage", params: {} });
      } else {
        try {
          store.push(stageAction(command).action as CustomToolPendingAction);
        } catch (error) {
          refusal = error;
        }
      }
      const expected = command.via === "ctx" && blocked ? undefined : (lastPush as HostilePush | undefined);
      if (expected?.label !== undefined) {
        const top = store.peek();
        expect(top?.label).toBe(expected.label);
        expect(result?.isError).not.toBe(true);
        model.push({ id: top?.id as string, label: expected.label, details: expected.details });
        expected.mutate?.();
      } else if (expected !== undefined) {
        // Refused at push, whichever way it came.
        if (command.via === "store")
          expect((refusal as { code?: string }).code).toBe("E_INVALID_PENDING_ACTION");
        else expect(textOf(result as AgentToolResult)).toContain("Invalid pending action");
        expect(REFUSED.has(command.push)).toBe(true);
      } else {
        expect(result?.isError).toBe(true); // blocked by the pending policy
      }
    } else if (command.kind === "resolve") {
      const top = model.at(-1);
      const mode = top === undefined ? undefined : stageModeOf(top.label);
      applied.length = 0;
      result = await session.execute({
        toolCallId: "r",
        name: "resolve",
        params: { action: command.action, reason: "r" },
      });
      if (top === undefined) {
        expect(textOf(result)).toBe("No pending action to resolve. Nothing to apply or discard.");
      } else if (command.action === "discard") {
        model.pop();
      } else if (mode === "throw") {
        expect(result.isError).toBe(true);
        expect(store.peek()?.id).toBe(top.id); // same id back on top
      } else {
        expect(applied).toEqual([top.label]); // the apply read at push ran, once
        model.pop();
      }
    } else {
      result = await session.execute({ toolCallId: "o", name: "other", params: {} });
      if (policy === "block" && model.length > 0) {
        expect(textOf(result)).toContain(`the pending action "${model.at(-1)?.label}" is waiting`);
      }
    }
    if (result !== undefined) assertWellFormed(result);
    // Every record keeps what push read: same ids, labels and details, frozen.
    const records = store.list();
    expect(records.map((record) => record.id)).toEqual(model.map((entry) => entry.id).reverse());
    for (const [index, record] of records.entries()) {
      const entry = model[model.length - 1 - index];
      expect(Object.isFrozen(record)).toBe(true);
      expect(record.label).toBe(entry?.label);
      expect(record.details).toEqual(entry?.details);
      expect(typeof record.sourceToolName).toBe("string");
    }
  }
  await session.dispose();
  expect(store.size).toBe(0);

  function stageModeOf(label: string): ApplyMode | undefined {
    return stageSpecs[Number(label.slice("action ".length))]?.apply;
  }
}

describe("Session with hostile pending actions (property)", () => {
  it("never rejects execute and keeps every record as push read it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<PendingPolicy>("block", "allow"),
        fc.array(sessionCommand, { maxLength: 30 }),
        (policy, commands) => runSessionScenario(policy, commands),
      ),
      { numRuns: 300 },
    );
  });
});
