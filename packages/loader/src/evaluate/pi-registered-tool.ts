/** What the loader reads of, and wraps around, a tool a pi extension gave `pi.registerTool`. */

import { declaresCurrentExecuteOrder } from "@tooldock/runtime";
import { adaptLegacyExecute } from "@tooldock/runtime/internal";
import type { CustomToolAPI } from "@tooldock/sdk";
import { orElse } from "../discover/expand-path.js";
import { piExtensionContext } from "./pi-context.js";

/** `tool[key]`, `undefined` for no object or a read that throws (the accept stage reports those). */
function field(tool: unknown, key: string): unknown {
  if (typeof tool !== "object" || tool === null) return undefined;
  return orElse(() => (tool as Record<string, unknown>)[key], undefined);
}

/** Whether `tool` has pi's `promptGuidelines`, bullets for the model that only pi's system prompt carries. */
export function hasGuidelines(tool: unknown): boolean {
  const guidelines = field(tool, "promptGuidelines");
  return Array.isArray(guidelines) && guidelines.length > 0;
}

/** The `name` of a tool a module registered, `undefined` when it has no string one or cannot be read. */
export function nameOf(tool: unknown): string | undefined {
  const name = field(tool, "name");
  return typeof name === "string" ? name : undefined;
}

/**
 * `tool` as pi's extensions expect to be called: `ctx` as pi's `ExtensionContext` ({@link piExtensionContext}), `this`
 * the tool, and `execute` called in pi's order, `(toolCallId, params, signal, onUpdate, ctx)`,
 * whatever its parameters are named, unless their names clearly say Tooldock's
 * (`declaresCurrentExecuteOrder`, read here, where they are the module's own and not a
 * wrapper's). A value that is no object with an `execute` function is passed on, for the checks.
 */
export function withPiContext(tool: unknown, api: CustomToolAPI): unknown {
  if (typeof tool !== "object" || tool === null) return tool;
  const original = (tool as { execute?: unknown }).execute;
  if (typeof original !== "function") return tool;
  const call = declaresCurrentExecuteOrder(original)
    ? original
    : adaptLegacyExecute(original as () => unknown);
  const carrier = Object.create(tool) as Record<string, unknown>;
  // `this` is the tool itself, not the carrier: a class instance's #private fields are its own.
  carrier.execute = function execute(
    toolCallId: unknown,
    params: unknown,
    onUpdate: unknown,
    ctx: unknown,
    signal: unknown,
  ) {
    return call.call(tool, toolCallId, params, onUpdate, piExtensionContext(ctx, api), signal);
  };
  return carrier;
}
