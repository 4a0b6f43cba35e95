import { type CustomTool, TooldockError } from "@tooldock/sdk";
import type { ToolSchema } from "../schema/tool-schema.js";
import { argumentsSeen, hearsStopThroughContext } from "./execute/tool-sees-signal.js";
import { toolOrigin } from "./snapshot-tool.js";
import { validateTool } from "./validate-tool.js";

/** A registered tool: its frozen record, where it came from, its schema, and how to call it. */
export interface RegisteredTool {
  /** The frozen record read once at registration (see `snapshotTool`), never the original. */
  tool: CustomTool;
  origin: string;
  schema: ToolSchema;
  /** The schema of the `structuredContent` its results must carry, when it declares one. */
  outputSchema: ToolSchema | undefined;
  /** The `execute` function read at registration; called with {@link RegisteredTool.target} as `this`. */
  execute: CustomTool["execute"];
  /** The `onSession` function read at registration, if any; called like `execute`. */
  onSession: CustomTool["onSession"];
  /** The object the tool was read from: `this` of `execute` and `onSession`. */
  target: object;
  /** `toolSeesSignal(execute)`, computed once: only such a tool gets an `AbortSignal`. */
  seesSignal: boolean;
  /** `toolSeesContext(execute)`, computed once: only such a tool gets a context object. */
  seesContext: boolean;
  /** Whether `execute` hears of a stop through its context (`STOP_THROUGH_CONTEXT`, no signal). */
  stopThroughContext: boolean;
  /**
   * True for a tool that bounds its own run (the session's `resolve`, by `resolveTimeoutMs`):
   * the session's `executeTimeoutMs` deadline does not apply to its calls. Abort and
   * `dispose()` still stop them.
   */
  ownDeadline: boolean;
  /**
   * The warnings `validateTool` gave: `W_TOOL_ACCESSOR` (read through getters or a Proxy),
   * `W_LEGACY_EXECUTE_ORDER` (the older argument order, adapted). Empty for most tools.
   */
  warnings: readonly { code: `W_${string}`; message: string; hint: string }[];
}

/** Options of {@link ToolRegistry.register} for the session's own tools. */
export interface RegisterOptions {
  /** See {@link RegisteredTool.ownDeadline}. Default false. */
  ownDeadline?: boolean;
}

/** The origin a tool gets when `register` is called without one. */
export const DEFAULT_ORIGIN = "the host";

/**
 * The tools of one session, in registration order. Registration checks the tool with
 * `validateTool` (one frozen record, its shape, name, schema and that the name is free), so a
 * registered tool is always callable and cannot change afterwards. A name taken is never
 * given to another tool until {@link ToolRegistry.unregister} frees it: the built-in
 * `resolve` (registered first, never unregistered by the session) cannot be replaced.
 */
export class ToolRegistry {
  readonly #entries = new Map<string, RegisteredTool>();

  /**
   * Adds a tool. Throws a `TooldockError` with `validateTool`'s code and its message then its
   * hint: `E_INVALID_TOOL` (not a tool, or a field whose read throws), `E_NAME_INVALID`,
   * `E_INVALID_SCHEMA` (naming the tool) or `E_NAME_CONFLICT` (naming both origins).
   */
  register(tool: unknown, origin: string = DEFAULT_ORIGIN, options: RegisterOptions = {}): RegisteredTool {
    const checked = validateTool(tool, { path: origin, holderOf: (name) => this.#entries.get(name)?.origin });
    if (!checked.ok) {
      const [refusal] = checked.diagnostics;
      throw new TooldockError(refusal.code, `${refusal.message} ${refusal.hint}`);
    }
    const { tool: record, schema, outputSchema } = checked;
    const source = toolOrigin(record) as NonNullable<ReturnType<typeof toolOrigin>>;
    const warnings = checked.diagnostics.map(({ code, message, hint }) => ({
      code: code as `W_${string}`,
      message,
      hint: hint ?? "",
    }));
    const seen = argumentsSeen(source.execute);
    // A marked execute hears of a stop through its context, which runTool links: no signal.
    const stopThroughContext = hearsStopThroughContext(source.execute);
    const entry: RegisteredTool = Object.freeze({
      tool: record,
      origin,
      schema,
      outputSchema,
      execute: source.execute,
      onSession: source.onSession,
      target: source.target,
      seesSignal: seen.signal && !stopThroughContext,
      seesContext: seen.context,
      stopThroughContext,
      ownDeadline: options.ownDeadline === true,
      warnings,
    });
    this.#entries.set(record.name, entry);
    return entry;
  }

  get(name: string): RegisteredTool | undefined {
    return this.#entries.get(name);
  }

  /**
   * Removes the tool of that name and returns its entry, or `undefined` when none is
   * registered. The name is free again afterwards. The caller decides which names may go
   * (the session keeps `resolve`).
   */
  unregister(name: string): RegisteredTool | undefined {
    const entry = this.#entries.get(name);
    if (entry !== undefined) this.#entries.delete(name);
    return entry;
  }

  /** Every entry, in registration order. */
  entries(): RegisteredTool[] {
    return [...this.#entries.values()];
  }
}
