import type { CustomTool, Diagnostic, DiagnosticCode } from "@tooldock/sdk";
import { RESOLVE_TOOL_NAME } from "../pending/resolve-tool.js";
import { asSchema } from "../schema/as-schema.js";
import { unknownFormats } from "../schema/formats.js";
import { TOOL_NAME_PATTERN } from "../schema/tool-name.js";
import type { ToolSchema } from "../schema/tool-schema.js";
import { describeError } from "../util/describe-error.js";
import { LEGACY_EXECUTE_ORDER_WARNING, legacyExecuteOrderWarning } from "./execute-order.js";
import { snapshotTool, TOOL_ACCESSOR_WARNING, toolAccessorWarning } from "./snapshot-tool.js";
import { UNKNOWN_ANNOTATION_WARNING } from "./tool-annotations.js";

/** Where a tool comes from and what it may not take: the options of {@link validateTool}. */
export interface ValidateToolOptions {
  /**
   * Where the tool comes from, named in every message and used as the diagnostics' `path`:
   * its module path (the loader) or the origin a host registered it with (a session).
   */
  path: string;
  /** The real path of the module, when it differs from `path` (kept on the diagnostics). */
  resolvedPath?: string | undefined;
  /** The entry's index in what a factory returned: a value without a name is `Entry <n>`. */
  entry?: number | undefined;
  /**
   * Names the tool may not take (`E_NAME_INVALID`): a host's built-ins, and `resolve` where
   * the session's own tool is not there to hold it (a loader, a CLI). A `Set` will do.
   */
  reserved?: { has(name: string): boolean } | undefined;
  /**
   * Who holds a name already (an origin or module path), or `undefined` when it is free:
   * a name held is `E_NAME_CONFLICT` naming both. Asked only once every other check passed,
   * so an invalid tool never claims or contests a name.
   */
  holderOf?: ((name: string) => string | undefined) | undefined;
  /**
   * Check now that the arguments can be validated, so that a schema nothing can validate is
   * `E_INVALID_SCHEMA` here rather than an error result on every call (the loader does this
   * at load time). A plain TypeBox schema, certain to compile, is still compiled on the
   * tool's first call; any other is compiled here. Default false: nothing is checked or
   * compiled until the first call.
   */
  compileValidator?: boolean | undefined;
}

/**
 * What {@link validateTool} made of a value: the frozen record (and its schema) with the
 * warnings to give, or the one error diagnostic that refuses it.
 */
export type ToolValidation =
  | {
      ok: true;
      /** The frozen record (`snapshotTool`): use it, never the value it was read from. */
      tool: CustomTool;
      /** The record's `parameters` as a {@link ToolSchema} (cached per schema object). */
      schema: ToolSchema;
      /** The record's `outputSchema` as a {@link ToolSchema}, when it declares one. */
      outputSchema: ToolSchema | undefined;
      /** Warnings only: `W_TOOL_ACCESSOR`, `W_LEGACY_EXECUTE_ORDER`, `W_UNKNOWN_ANNOTATION`. */
      diagnostics: Diagnostic[];
    }
  | {
      ok: false;
      /** The name, when one was read as a string. */
      toolName: string | undefined;
      /** One error: `E_INVALID_TOOL`, `E_NAME_INVALID`, `E_INVALID_SCHEMA` or `E_NAME_CONFLICT`. */
      diagnostics: [Diagnostic];
    };

const NAME_RULE = `it must match ${TOOL_NAME_PATTERN} (a letter or "_", then up to 63 letters, digits, "_" or "-")`;

/**
 * The one check of a tool, used by the loader's accept step, `Session.register` and the
 * CLI's `--isolate` (docs/contract.md §4.1). It reads the value once into a frozen record
 * ({@link snapshotTool}) and checks, in this order, stopping at the first failure:
 *
 * 1. the shape (`E_INVALID_TOOL`): an object with string `name`, `label` and `description`,
 *    an object `parameters`, an `execute` function, `onSession` a function or absent,
 *    `annotations` absent or an object whose hints are booleans and `title` a string (a field
 *    whose read throws is a problem too);
 * 2. the name (`E_NAME_INVALID`): {@link TOOL_NAME_PATTERN}, not in `reserved`;
 * 3. the schemas (`E_INVALID_SCHEMA`): `parameters` and, when declared, `outputSchema`, each
 *    TypeBox or zod v4 with an object top level (MCP requires it of an `outputSchema` too),
 *    and with `compileValidator`, a validator that can be compiled;
 * 4. the name is free (`E_NAME_CONFLICT`, naming both holders; `holderOf`).
 *
 * It never throws. Every message names the tool and `path`; each diagnostic has a `hint`.
 * An accepted tool comes with its warnings: `W_TOOL_ACCESSOR` (read through getters or a
 * Proxy), `W_LEGACY_EXECUTE_ORDER` (pi's older `execute` order, adapted) and
 * `W_UNKNOWN_ANNOTATION` (`annotations` keys that are not MCP's, dropped from the record).
 *
 * @example
 * ```ts
 * const checked = validateTool(tool, { path: "tools/greet.ts", holderOf: (name) => owners.get(name) });
 * if (!checked.ok) throw new Error(checked.diagnostics[0].message);
 * session.register(checked.tool, "tools/greet.ts"); // the record, never `tool`
 * ```
 */
export function validateTool(value: unknown, options: ValidateToolOptions): ToolValidation {
  const { path } = options;
  const snapshot = snapshotTool(value);
  if (!snapshot.ok) {
    const { name, problems } = snapshot;
    const subject =
      name !== undefined
        ? `Tool "${name}"`
        : options.entry !== undefined
          ? `Entry ${options.entry}`
          : "The value";
    const threw = problems.some((problem) => problem.startsWith("reading "));
    return refused(name, "E_INVALID_TOOL", options, {
      message: `${subject} from ${path} is not a valid tool: ${problems.join("; ")}.`,
      hint: threw
        ? "Use a plain object (no throwing getters or proxies) with `name`, `label`, `description`, `parameters` and `execute`."
        : "Give it string `name`, `label` and `description`, a `parameters` schema (TypeBox or zod) and an `execute` function; `defineTool` checks this as you type.",
    });
  }
  const { tool } = snapshot;
  const { name } = tool;
  const invalidName = validateToolName(name, { ...options, holderOf: undefined });
  if (invalidName !== undefined) return { ok: false, toolName: name, diagnostics: [invalidName] };
  let schema: ToolSchema;
  let outputSchema: ToolSchema | undefined;
  try {
    schema = asSchema(tool.parameters);
    if (options.compileValidator === true) schema.prepare?.();
  } catch (error) {
    return refused(name, "E_INVALID_SCHEMA", options, {
      message: `Tool "${name}" from ${path} has unusable parameters: ${describeError(error)}`,
      hint: "Declare the parameters as an object schema: `Type.Object({ ... })` (TypeBox) or `z.object({ ... })` (zod v4).",
    });
  }
  try {
    if (tool.outputSchema !== undefined) {
      outputSchema = asSchema(tool.outputSchema, "outputSchema");
      if (options.compileValidator === true) outputSchema.prepare?.();
    }
  } catch (error) {
    return refused(name, "E_INVALID_SCHEMA", options, {
      message: `Tool "${name}" from ${path} has an unusable outputSchema: ${describeError(error)}`,
      hint: "Declare the outputSchema as an object schema (MCP requires one): `Type.Object({ ... })` (TypeBox) or `z.object({ ... })` (zod v4).",
    });
  }
  const conflict = nameConflict(name, options);
  if (conflict !== undefined) return { ok: false, toolName: name, diagnostics: [conflict] };
  const diagnostics: Diagnostic[] = [];
  const accessor = toolAccessorWarning(snapshot, path);
  if (accessor !== undefined)
    diagnostics.push(diagnostic(TOOL_ACCESSOR_WARNING, "warning", name, options, accessor));
  if (snapshot.legacyExecuteOrder)
    diagnostics.push(
      diagnostic(
        LEGACY_EXECUTE_ORDER_WARNING,
        "warning",
        name,
        options,
        legacyExecuteOrderWarning(name, path),
      ),
    );
  if (snapshot.unknownAnnotations.length > 0) {
    const keys = snapshot.unknownAnnotations.map((key) => `"${key}"`).join(", ");
    diagnostics.push(
      diagnostic(UNKNOWN_ANNOTATION_WARNING, "warning", name, options, {
        message: `Tool "${name}" from ${path} has annotations Tooldock does not know (${keys}); they were dropped.`,
        hint: "Use MCP's annotation names: title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint.",
      }),
    );
  }
  // A format nobody checks is said at load, not found out by a call (zod checks its own).
  const unknown = schema.formats === undefined ? [] : unknownFormats(schema.formats);
  if (unknown.length > 0) {
    const formats = unknown.map((format) => `"${format}"`).join(", ");
    diagnostics.push(
      diagnostic(UNKNOWN_FORMAT_WARNING, "warning", name, options, {
        message: `Tool "${name}" from ${path} uses string formats nothing checks (${formats}): values of any form are accepted for them.`,
        hint: "Use a format ajv-formats knows (email, uri, url, uuid, date, time, date-time, duration, hostname, ipv4, ipv6, regex, …), or a pattern.",
      }),
    );
  }
  return { ok: true, tool, schema, outputSchema, diagnostics };
}

/** The code of the warning about string formats no checker knows (ignored when validating). */
export const UNKNOWN_FORMAT_WARNING = "W_UNKNOWN_FORMAT";

/**
 * The name steps of {@link validateTool} alone, for a name known without its tool (the CLI's
 * `--isolate` parent checks what each child reported): `E_NAME_INVALID` for a name that
 * breaks {@link TOOL_NAME_PATTERN} or is in `reserved`, then `E_NAME_CONFLICT` when
 * `holderOf` says it is taken; `undefined` when the name can be used. Same wording as
 * `validateTool`.
 */
export function validateToolName(
  name: string,
  options: Pick<ValidateToolOptions, "path" | "resolvedPath" | "reserved" | "holderOf">,
): Diagnostic | undefined {
  const problem = !TOOL_NAME_PATTERN.test(name)
    ? NAME_RULE
    : name === RESOLVE_TOOL_NAME && options.reserved?.has(name)
      ? `"${RESOLVE_TOOL_NAME}" is reserved for the built-in tool that applies or discards pending actions`
      : options.reserved?.has(name)
        ? `"${name}" is reserved for a built-in tool of this host`
        : undefined;
  if (problem !== undefined) {
    return diagnostic("E_NAME_INVALID", "error", name, options, {
      message: `Tool name "${name}" from ${options.path} cannot be used: ${problem}.`,
      hint: 'Rename the tool, e.g. "my_tool" (letters, digits, "_" and "-", at most 64 characters, not a reserved name).',
    });
  }
  return nameConflict(name, options);
}

function nameConflict(
  name: string,
  options: Pick<ValidateToolOptions, "path" | "resolvedPath" | "holderOf">,
): Diagnostic | undefined {
  const holder = options.holderOf?.(name);
  if (holder === undefined) return undefined;
  return diagnostic("E_NAME_CONFLICT", "error", name, options, {
    message:
      holder === options.path
        ? `Tool name "${name}" appears twice in ${options.path}; the first one is kept.`
        : `Tool name "${name}" from ${options.path} is already taken by ${holder}; the first to claim a name keeps it.`,
    hint: "Rename one of the two tools, or remove one of them (for modules: from the tool paths).",
  });
}

function refused(
  toolName: string | undefined,
  code: DiagnosticCode,
  options: ValidateToolOptions,
  text: { message: string; hint: string },
): ToolValidation {
  return { ok: false, toolName, diagnostics: [diagnostic(code, "error", toolName, options, text)] };
}

/** A diagnostic with the loader's field order; `resolvedPath` only when it differs from `path`. */
function diagnostic(
  code: DiagnosticCode,
  severity: "error" | "warning",
  toolName: string | undefined,
  where: Pick<ValidateToolOptions, "path" | "resolvedPath">,
  text: { message: string; hint: string },
): Diagnostic {
  const result: Diagnostic = { code, severity, message: text.message, path: where.path };
  if (where.resolvedPath !== undefined && where.resolvedPath !== where.path)
    result.resolvedPath = where.resolvedPath;
  if (toolName !== undefined) result.toolName = toolName;
  result.hint = text.hint;
  return result;
}
