import { type CustomTool, TooldockError } from "@tooldock/sdk";
import { asSchema } from "../schema/as-schema.js";
import { TOOL_NAME_PATTERN } from "../schema/tool-name.js";
import type { ToolSchema } from "../schema/tool-schema.js";
import { toolSeesSignal } from "./execute/tool-sees-signal.js";

/** A registered tool, where it came from, its schema, and whether it can see its signal. */
export interface RegisteredTool {
  tool: CustomTool;
  origin: string;
  schema: ToolSchema;
  /** `tool.execute` as registered; a call re-checks a tool whose `execute` was replaced since. */
  execute: CustomTool["execute"];
  /** `toolSeesSignal(execute)`, computed once: only such a tool gets an `AbortSignal`. */
  seesSignal: boolean;
  /**
   * True for a tool that bounds its own run (the session's `resolve`, by `resolveTimeoutMs`):
   * the session's `executeTimeoutMs` deadline does not apply to its calls. Abort and
   * `dispose()` still stop them.
   */
  ownDeadline: boolean;
}

/** Options of {@link ToolRegistry.register} for the session's own tools. */
export interface RegisterOptions {
  /** See {@link RegisteredTool.ownDeadline}. Default false. */
  ownDeadline?: boolean;
}

/** The origin a tool gets when `register` is called without one. */
export const DEFAULT_ORIGIN = "the host";

/**
 * The tools of one session, in registration order. Registration checks the tool's shape,
 * its name and its schema, so a registered tool is always callable.
 */
export class ToolRegistry {
  readonly #entries = new Map<string, RegisteredTool>();

  /**
   * Adds a tool. Throws a `TooldockError`: `E_INVALID_TOOL` (not a tool), `E_NAME_INVALID`,
   * `E_INVALID_SCHEMA` (naming the tool) or `E_NAME_CONFLICT` (naming both origins).
   */
  register(tool: CustomTool, origin: string = DEFAULT_ORIGIN, options: RegisterOptions = {}): RegisteredTool {
    assertToolShape(tool, origin);
    if (!TOOL_NAME_PATTERN.test(tool.name)) {
      throw new TooldockError(
        "E_NAME_INVALID",
        `Tool name "${tool.name}" from ${origin} is invalid: it must match ${TOOL_NAME_PATTERN} (a letter or _, then up to 63 letters, digits, _ or -). Rename the tool.`,
      );
    }
    const existing = this.#entries.get(tool.name);
    if (existing !== undefined) {
      throw new TooldockError(
        "E_NAME_CONFLICT",
        `Tool name "${tool.name}" from ${origin} is already taken by ${existing.origin}. Rename one of the two tools.`,
      );
    }
    const execute = tool.execute;
    const schema = schemaOf(tool, origin);
    const entry: RegisteredTool = {
      tool,
      origin,
      schema,
      execute,
      seesSignal: toolSeesSignal(execute),
      ownDeadline: options.ownDeadline === true,
    };
    this.#entries.set(tool.name, entry);
    return entry;
  }

  get(name: string): RegisteredTool | undefined {
    return this.#entries.get(name);
  }

  /** Every entry, in registration order. */
  entries(): RegisteredTool[] {
    return [...this.#entries.values()];
  }
}

function assertToolShape(tool: unknown, origin: string): asserts tool is CustomTool {
  const problem = findShapeProblem(tool);
  if (problem === undefined) return;
  throw new TooldockError("E_INVALID_TOOL", `Invalid tool from ${origin}: ${problem}.`);
}

function findShapeProblem(tool: unknown): string | undefined {
  if (typeof tool !== "object" || tool === null)
    return `expected a tool object, got ${tool === null ? "null" : typeof tool}`;
  const candidate = tool as Record<string, unknown>;
  if (typeof candidate.name !== "string") return "name must be a string";
  for (const field of ["label", "description"]) {
    if (typeof candidate[field] !== "string") return `${field} of "${candidate.name}" must be a string`;
  }
  if (typeof candidate.execute !== "function") return `execute of "${candidate.name}" must be a function`;
  if (candidate.onSession !== undefined && typeof candidate.onSession !== "function") {
    return `onSession of "${candidate.name}" must be a function when given`;
  }
  return undefined;
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
