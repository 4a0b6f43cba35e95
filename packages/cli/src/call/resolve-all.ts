import { RESOLVE_TOOL_NAME, type Session } from "@tooldock/runtime";
import { count, quoted } from "@tooldock/runtime/internal";
import type { AgentToolResult } from "@tooldock/sdk";
import { type ResolveInterrupt, whileResolving } from "./interrupt-resolve.js";

/**
 * Most resolutions one `call --apply` / `--discard` runs. An apply that stages a new action
 * each time would otherwise loop until memory runs out; a real call stages a handful.
 */
export const MAX_RESOLUTIONS = 100;

/** One resolution: the label it took off the stack and the `resolve` result. */
export interface Resolution {
  label: string;
  result: AgentToolResult;
}

/** What {@link resolveStaged} did, and why it stopped early, if it did. */
export interface ResolveOutcome {
  resolutions: Resolution[];
  /** Set when it stopped with actions of the call still pending: says why and what to do. */
  stopped?: string;
}

/** Options of {@link resolveStaged}. */
export interface ResolveStagedOptions {
  action: "apply" | "discard";
  reason: string;
  /**
   * Ids of the actions this call staged; grows while resolving, since an action staged by an
   * `apply` or `reject` of the call's own actions belongs to the call too.
   */
  ours: ReadonlySet<string>;
  /** Says what Ctrl-C during an apply or reject would leave (see {@link whileResolving}). */
  interrupt?: Omit<ResolveInterrupt, "verb" | "label">;
}

/**
 * Calls `resolve` while the top of the stack is an action this call staged, top first (LIFO),
 * so an action staged by anyone else (a factory at load time, a timer) is never applied.
 * Stops at the first error result (a failed apply puts the action back on top, so going on
 * would retry it forever), when the top is not the call's own while some of its actions are
 * still under it, and after {@link MAX_RESOLUTIONS} resolutions.
 */
export async function resolveStaged(
  session: Session,
  options: ResolveStagedOptions,
): Promise<ResolveOutcome> {
  const { action, reason, ours, interrupt } = options;
  const resolutions: Resolution[] = [];
  const oursPending = () => session.pending.list().filter((record) => ours.has(record.id));
  for (;;) {
    const top = session.pending.peek();
    if (top === undefined) return { resolutions };
    if (!ours.has(top.id)) {
      const left = oursPending().length;
      if (left === 0) return { resolutions };
      return {
        resolutions,
        stopped:
          `stopped before ${quoted(top.label)}: that action is on top of the stack but was not staged by this call ` +
          `(something else running in the process staged it), so --${action} does not touch it; ` +
          `${count(left, "action")} of the call under it stayed pending. Run the call again.`,
      };
    }
    if (resolutions.length >= MAX_RESOLUTIONS) {
      return {
        resolutions,
        stopped:
          `stopped after ${MAX_RESOLUTIONS} resolutions: resolving the call's actions kept staging new ones ` +
          `(the top is now ${quoted(top.label)}). Fix the tool so that its ${action === "apply" ? "apply" : "reject"} ` +
          "does not stage another action every time.",
      };
    }
    const resolving = () =>
      session.execute({
        toolCallId: `resolve-${resolutions.length + 1}`,
        name: RESOLVE_TOOL_NAME,
        params: { action, reason },
      });
    const result =
      interrupt === undefined
        ? await resolving()
        : await whileResolving(resolving, { ...interrupt, verb: action, label: top.label });
    resolutions.push({ label: top.label, result });
    if (result.isError) return { resolutions };
  }
}
