import {
  LEGACY_EXECUTE_ORDER_WARNING,
  legacyExecuteOrderWarning,
  snapshotTool,
  TOOL_ACCESSOR_WARNING,
  toolAccessorWarning,
} from "@tooldock/runtime";
import type { CustomTool, Diagnostic } from "@tooldock/sdk";
import { createDiagnostic, createWarning } from "../diagnostics.js";
import type { DiscoveredModule } from "../discover/types.js";
import { checkToolName } from "./check-tool-name.js";
import { checkToolSchema } from "./check-tool-schema.js";

/**
 * The most tools one module may return. No model takes that many tools in one request, and
 * checking tens of thousands of schemas would stall the load; a module over the limit
 * contributes none (`E_INVALID_TOOL`).
 */
export const MAX_TOOLS_PER_MODULE = 1000;

/** Names claimed so far in a load: tool name → path of the module that claimed it first. */
export type NameClaims = Map<string, string>;

/**
 * Checks every entry a module's factory returned and keeps the valid ones. Each entry is
 * first read once into a frozen record (`snapshotTool` of the runtime: every field read
 * exactly once, a getter or Proxy warned about with `W_TOOL_ACCESSOR`); everything after
 * that, and everyone after the loader (the session, the adapters, MCP, the CLI), sees only
 * the record, so what was checked is what runs. The checks: the shape (`E_INVALID_TOOL`,
 * also for a field whose read throws), the name (`E_NAME_INVALID`, reserved names and
 * `resolve` included), the schema (`E_INVALID_SCHEMA`) and uniqueness across modules
 * (`E_NAME_CONFLICT`: the first module to claim a name keeps it). Invalid entries never claim
 * a name. A module that returns more than {@link MAX_TOOLS_PER_MODULE} entries contributes
 * none. A tool whose `execute` declares pi's older argument order is accepted (the record
 * calls it in that order) with one `W_LEGACY_EXECUTE_ORDER` warning.
 */
export function acceptTools(
  module: DiscoveredModule,
  entries: unknown[],
  reserved: ReadonlySet<string>,
  claims: NameClaims,
): { tools: CustomTool[]; diagnostics: Diagnostic[] } {
  const { path, resolvedPath } = module;
  const tools: CustomTool[] = [];
  const diagnostics: Diagnostic[] = [];
  if (entries.length > MAX_TOOLS_PER_MODULE) {
    diagnostics.push(
      createDiagnostic("E_INVALID_TOOL", {
        message: `The factory of ${path} returned ${entries.length} entries; a module may return at most ${MAX_TOOLS_PER_MODULE} tools, so none of them was loaded.`,
        path,
        resolvedPath,
        hint: `Split the tools over several modules, or return only the tools the model needs (at most ${MAX_TOOLS_PER_MODULE} per module).`,
      }),
    );
    return { tools, diagnostics };
  }
  entries.forEach((entry, index) => {
    const snapshot = snapshotTool(entry);
    if (!snapshot.ok) {
      const { name } = snapshot;
      const label = name === undefined ? `Entry ${index}` : `Tool "${name}"`;
      diagnostics.push(
        createDiagnostic("E_INVALID_TOOL", {
          message: `${label} returned by the factory of ${path} is not a tool: ${snapshot.problems.join("; ")}.`,
          path,
          resolvedPath,
          toolName: name,
          hint: snapshot.problems.some((problem) => problem.startsWith("reading "))
            ? "Return plain objects (no throwing getters or proxies) with `name`, `label`, `description`, `parameters` and `execute`."
            : "Return objects with string `name`, `label` and `description`, a `parameters` schema and an `execute` function (`defineTool` checks this as you type).",
        }),
      );
      return;
    }
    const tool = snapshot.tool;
    const invalidName = nameInvalid(module, tool.name, reserved);
    if (invalidName !== undefined) {
      diagnostics.push(invalidName);
      return;
    }
    const schemaProblem = checkToolSchema(tool.parameters);
    if (schemaProblem !== undefined) {
      diagnostics.push(
        createDiagnostic("E_INVALID_SCHEMA", {
          message: `Tool "${tool.name}" in ${path} has unusable parameters: ${schemaProblem}`,
          path,
          resolvedPath,
          toolName: tool.name,
          hint: "Declare the parameters as an object schema: `Type.Object({ ... })` (TypeBox) or `z.object({ ... })` (zod v4), from `pi.typebox` / `pi.zod`.",
        }),
      );
      return;
    }
    const owner = claims.get(tool.name);
    if (owner !== undefined) {
      diagnostics.push(nameConflict(module, tool.name, owner));
      return;
    }
    const warning = toolAccessorWarning(snapshot, path);
    if (warning !== undefined) {
      diagnostics.push(
        createWarning(TOOL_ACCESSOR_WARNING, { ...warning, path, resolvedPath, toolName: tool.name }),
      );
    }
    if (snapshot.legacyExecuteOrder) {
      // Adapted by the snapshot: it runs; one warning, named after the tool.
      diagnostics.push(
        createWarning(LEGACY_EXECUTE_ORDER_WARNING, {
          ...legacyExecuteOrderWarning(tool.name, path),
          path,
          resolvedPath,
          toolName: tool.name,
        }),
      );
    }
    claims.set(tool.name, path);
    tools.push(tool);
  });
  return { tools, diagnostics };
}

/**
 * The `E_NAME_INVALID` diagnostic for a name that cannot be used (it breaks the pattern, or
 * is `resolve` or one of `reserved`), or undefined when it can. A name that is not a string
 * (only a forged report can carry one) is invalid too.
 */
export function nameInvalid(
  module: DiscoveredModule,
  name: unknown,
  reserved: ReadonlySet<string>,
): Diagnostic | undefined {
  const problem =
    typeof name === "string" ? checkToolName(name, reserved) : `it is a ${typeof name}, not a string`;
  if (problem === undefined) return undefined;
  const shown = typeof name === "string" ? name : `(${typeof name})`;
  return createDiagnostic("E_NAME_INVALID", {
    message: `Tool name "${shown}" in ${module.path} cannot be used: ${problem}.`,
    path: module.path,
    resolvedPath: module.resolvedPath,
    ...(typeof name === "string" ? { toolName: name } : {}),
    hint: 'Rename the tool, e.g. "my_tool" (letters, digits, "_" and "-", at most 64 characters, not a built-in name).',
  });
}

/** The `E_NAME_CONFLICT` diagnostic for a name another module (or the session) already holds. */
export function nameConflict(module: DiscoveredModule, name: string, owner: string): Diagnostic {
  return createDiagnostic("E_NAME_CONFLICT", {
    message:
      owner === module.path
        ? `Tool name "${name}" is returned twice by the factory of ${module.path}; the first one is kept.`
        : `Tool name "${name}" in ${module.path} is already taken by ${owner}; the first module to claim a name keeps it.`,
    path: module.path,
    resolvedPath: module.resolvedPath,
    toolName: name,
    hint: "Rename one of the two tools, or remove one of the modules from the tool paths.",
  });
}
