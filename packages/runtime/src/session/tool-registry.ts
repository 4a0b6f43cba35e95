import { type CustomTool, TooldockError } from "@tooldock/sdk";
import { asSchema } from "../schema/as-schema.js";
import { TOOL_NAME_PATTERN } from "../schema/tool-name.js";
import type { ToolSchema } from "../schema/tool-schema.js";
import { toolSeesSignal } from "./execute/tool-sees-signal.js";
import { legacyExecuteOrderWarning } from "./execute-order.js";
import { snapshotTool, toolAccessorWarning, toolOrigin } from "./snapshot-tool.js";

/** A registered tool: its frozen record, where it came from, its schema, and how to call it. */
export interface RegisteredTool {
  /** The frozen record read once at registration (see `snapshotTool`), never the original. */
  tool: CustomTool;
  origin: string;
  schema: ToolSchema;
  /** The `execute` function read at registration; called with {@link RegisteredTool.target} as `this`. */
  execute: CustomTool["execute"];
  /** The `onSession` function read at registration, if any; called like `execute`. */
  onSession: CustomTool["onSession"];
  /** The object the tool was read from: `this` of `execute` and `onSession`. */
  target: object;
  /** `toolSeesSignal(execute)`, computed once: only such a tool gets an `AbortSignal`. */
  seesSignal: boolean;
  /**
   * True for a tool that bounds its own run (the session's `resolve`, by `resolveTimeoutMs`):
   * the session's `executeTimeoutMs` deadline does not apply to its calls. Abort and
   * `dispose()` still stop them.
   */
  ownDeadline: boolean;
  /** The warning to give when the tool was read through getters or a Proxy; else undefined. */
  accessorWarning: { message: string; hint: string } | undefined;
  /** The warning to give when `execute` uses the older argument order (it is adapted); else undefined. */
  legacyOrderWarning: { message: string; hint: string } | undefined;
}

/** Options of {@link ToolRegistry.register} for the session's own tools. */
export interface RegisterOptions {
  /** See {@link RegisteredTool.ownDeadline}. Default false. */
  ownDeadline?: boolean;
}

/** The origin a tool gets when `register` is called without one. */
export const DEFAULT_ORIGIN = "the host";

/**
 * The tools of one session, in registration order. Registration reads the tool once into a
 * frozen record (`snapshotTool`) and checks that record's shape, name and schema, so a
 * registered tool is always callable and cannot change afterwards. A name taken is never
 * given to another tool until {@link ToolRegistry.unregister} frees it: the built-in
 * `resolve` (registered first, never unregistered by the session) cannot be replaced.
 */
export class ToolRegistry {
  readonly #entries = new Map<string, RegisteredTool>();

  /**
   * Adds a tool. Throws a `TooldockError`: `E_INVALID_TOOL` (not a tool, or a field whose
   * read throws), `E_NAME_INVALID`, `E_INVALID_SCHEMA` (naming the tool) or `E_NAME_CONFLICT`
   * (naming both origins).
   */
  register(tool: unknown, origin: string = DEFAULT_ORIGIN, options: RegisterOptions = {}): RegisteredTool {
    const snapshot = snapshotTool(tool);
    if (!snapshot.ok) {
      const which = snapshot.name === undefined ? "tool" : `tool "${snapshot.name}"`;
      throw new TooldockError(
        "E_INVALID_TOOL",
        `Invalid ${which} from ${origin}: ${snapshot.problems.join("; ")}. Give it string name, label and description, a parameters schema and an execute function.`,
      );
    }
    const record = snapshot.tool;
    const name = record.name;
    if (!TOOL_NAME_PATTERN.test(name)) {
      throw new TooldockError(
        "E_NAME_INVALID",
        `Tool name "${name}" from ${origin} is invalid: it must match ${TOOL_NAME_PATTERN} (a letter or _, then up to 63 letters, digits, _ or -). Rename the tool.`,
      );
    }
    const existing = this.#entries.get(name);
    if (existing !== undefined) {
      throw new TooldockError(
        "E_NAME_CONFLICT",
        `Tool name "${name}" from ${origin} is already taken by ${existing.origin}. Rename one of the two tools.`,
      );
    }
    const schema = schemaOf(record, origin);
    const source = toolOrigin(record) as NonNullable<ReturnType<typeof toolOrigin>>;
    const entry: RegisteredTool = Object.freeze({
      tool: record,
      origin,
      schema,
      execute: source.execute,
      onSession: source.onSession,
      target: source.target,
      seesSignal: toolSeesSignal(source.execute),
      ownDeadline: options.ownDeadline === true,
      accessorWarning: toolAccessorWarning(snapshot, origin),
      legacyOrderWarning: snapshot.legacyExecuteOrder ? legacyExecuteOrderWarning(name, origin) : undefined,
    });
    this.#entries.set(name, entry);
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

function schemaOf(tool: CustomTool, origin: string): ToolSchema {
  try {
    return asSchema(tool.parameters);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new TooldockError("E_INVALID_SCHEMA", `Tool "${tool.name}" from ${origin}: ${message}`, {
      cause: error,
    });
  }
}
