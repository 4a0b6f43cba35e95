import { existsSync, readFileSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { Type } from "@sinclair/typebox";
import type {
  AgentToolResult,
  CustomTool,
  CustomToolAPI,
  CustomToolContext,
  Diagnostic,
  ToolParameters,
  ToolUpdateCallback,
} from "@tooldock/sdk";
import { nearestUp } from "../compile/find-tsconfig.js";
import { loadZodModule } from "../compile/load-zod.js";
import { createDiagnostic, createWarning, describeError } from "../diagnostics.js";
import { orElse } from "../discover/expand-path.js";
import type { DiscoveredModule } from "../discover/types.js";

/** What `tool()` of `@opencode-ai/plugin` returns: its input as it is. */
interface OpencodeTool {
  description: unknown;
  args: unknown;
  execute: (args: unknown, context: ReturnType<typeof opencodeContext>) => unknown;
}

/** opencode's own test for an export that is a tool. */
export function isOpencodeTool(value: unknown): value is OpencodeTool {
  return (
    typeof value === "object" &&
    value !== null &&
    ["args", "description", "execute"].every((key) => key in value)
  );
}

/** The names of a module's exports that are opencode tools (none when its exports cannot be read as such). */
export function opencodeExportNames(moduleValue: unknown): string[] {
  if (typeof moduleValue !== "object" || moduleValue === null) return [];
  return Object.keys(moduleValue).filter((name) =>
    isOpencodeTool((moduleValue as Record<string, unknown>)[name]),
  );
}

/**
 * The tools of an opencode tool file, named as opencode names them (`math.ts`'s default `math`,
 * its `add` `math_add`); one that cannot load is an `E_INVALID_TOOL`, the others still load.
 */
export function opencodeTools(
  moduleValue: Record<string, unknown>,
  names: readonly string[],
  module: DiscoveredModule,
  api: CustomToolAPI,
): { tools: CustomTool[]; diagnostics: Diagnostic[] } {
  const file = basename(module.path, extname(module.path));
  const tools: CustomTool[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const exportName of names) {
    const name = exportName === "default" ? file : `${file}_${exportName}`;
    const definition = moduleValue[exportName] as OpencodeTool;
    try {
      tools.push(adapt(name, definition, api));
    } catch (error) {
      diagnostics.push(
        createDiagnostic("E_INVALID_TOOL", {
          message: `The opencode tool "${name}" (export "${exportName}" of ${module.path}) cannot load: ${describeError(error)}`,
          ...module,
          hint: 'Declare it as opencode does: tool({ description: "…", args: { name: tool.schema.string() }, async execute(args, context) { return "…" } }).',
        }),
      );
    }
  }
  const bun = bunApiWarning(module);
  if (bun !== undefined) diagnostics.push(bun);
  return { tools, diagnostics };
}

function adapt(name: string, definition: OpencodeTool, api: CustomToolAPI): CustomTool {
  const { description, execute } = definition;
  if (typeof description !== "string") throw new Error("its description is not a string");
  if (typeof execute !== "function") throw new Error("its execute is not a function");
  let worktree: { cwd: string; path: string } | undefined;
  return {
    name,
    label: name,
    description,
    parameters: parametersOf(definition.args ?? {}) as ToolParameters,
    async execute(toolCallId, params, onUpdate, ctx, signal) {
      // Looked up once per working folder, not on every call.
      if (worktree?.cwd !== ctx.cwd) worktree = { cwd: ctx.cwd, path: worktreeOf(ctx.cwd) };
      const context = opencodeContext(toolCallId, ctx, signal, onUpdate, api, worktree.path);
      let result: unknown;
      try {
        result = await execute.call(definition, params, context);
      } catch (error) {
        throw bunHint(error);
      }
      return toolResult(result);
    },
  };
}

/** `args` as opencode reads them: a shape of zod schemas, or (older tools) JSON Schema per argument. */
function parametersOf(args: unknown): unknown {
  if (typeof args !== "object" || args === null || Array.isArray(args))
    throw new Error("its args are not an object of argument schemas");
  const entries = Object.entries(args);
  if (entries.every(([, schema]) => typeof schema === "object" && schema !== null && "_zod" in schema))
    return (loadZodModule("zod").z as { object(shape: object): unknown }).object(args);
  const zod3 = entries.find(
    ([, schema]) => typeof schema === "object" && schema !== null && "_def" in schema,
  );
  if (zod3 !== undefined)
    throw new Error(
      `its argument "${zod3[0]}" is a zod 3 schema; Tooldock takes zod 4 (import { tool } from "@opencode-ai/plugin" and use tool.schema, or zod 4)`,
    );
  const properties: Record<string, unknown> = {};
  for (const [key, schema] of entries) {
    if (typeof schema !== "object" || schema === null || Array.isArray(schema))
      throw new Error(`its argument "${key}" is neither a zod schema nor a JSON Schema object`);
    properties[key] = schema;
  }
  return Type.Unsafe({ type: "object", properties, required: Object.keys(properties) });
}

/** The `context` opencode passes a tool's `execute`, as far as Tooldock has it. */
function opencodeContext(
  toolCallId: string,
  ctx: CustomToolContext,
  signal: AbortSignal | undefined,
  onUpdate: ToolUpdateCallback | undefined,
  api: CustomToolAPI,
  worktree: string,
) {
  return {
    sessionID: ctx.sessionId,
    // opencode's id of the assistant message that made the call; Tooldock has the call's own.
    messageID: toolCallId,
    callID: toolCallId,
    agent: "tooldock",
    abort: signal ?? new AbortController().signal,
    directory: ctx.cwd,
    worktree,
    extra: undefined,
    metadata(input?: { title?: unknown; metadata?: unknown }): void {
      const title = typeof input?.title === "string" ? input.title : undefined;
      onUpdate?.({
        content: title === undefined ? [] : [{ type: "text", text: title }],
        details: { title, metadata: input?.metadata },
      });
    },
    async ask(input?: { permission?: unknown; patterns?: unknown }): Promise<void> {
      const permission = String(input?.permission);
      const patterns = Array.isArray(input?.patterns) ? input.patterns.map(String) : [];
      const what = `"${permission}"${patterns.length > 0 ? ` for ${patterns.join(", ")}` : ""}`;
      if (!api.hasUI)
        throw new Error(
          `The tool asked for permission ${what}, and this host has no user interface to ask: denied.`,
        );
      if (!(await api.ui.confirm(`Allow ${permission}?`, patterns.join("\n"))))
        throw new Error(`The user denied permission ${what}.`);
    },
  };
}

/** The nearest folder up from `cwd` holding `.git` (that a tool host may read), else `cwd`. */
function worktreeOf(cwd: string): string {
  // In a tool host, Node's permission model makes existsSync throw for a folder it may not
  // read: not this one.
  const holdsGit = (folder: string) =>
    orElse(() => existsSync(join(folder, ".git")), false) ? folder : undefined;
  return nearestUp(join(cwd, ".git"), new Map(), holdsGit, cwd);
}

/**
 * What opencode makes of a result: a string is the output; an object its `output`, `title` and
 * `metadata` (as `details`) and image `attachments`; any other value is written as JSON.
 */
function toolResult(result: unknown): AgentToolResult {
  if (typeof result === "string") return { content: [{ type: "text", text: result }] };
  if (typeof result === "object" && result !== null && "output" in result) {
    const { output, title, metadata, attachments } = result as Record<string, unknown>;
    const content: AgentToolResult["content"] = [{ type: "text", text: String(output) }];
    if (Array.isArray(attachments)) content.push(...attachments.flatMap(imageOf));
    return { content, details: { title, metadata } };
  }
  const text = result === undefined ? "" : (JSON.stringify(result) ?? String(result));
  return { content: [{ type: "text", text }] };
}

/** An attachment (opencode's `FilePart`) that is an image in a `data:` URL, as image content. */
function imageOf(part: unknown): AgentToolResult["content"] {
  const { mime, url } = (typeof part === "object" && part !== null ? part : {}) as Record<string, unknown>;
  if (typeof mime !== "string" || !mime.startsWith("image/") || typeof url !== "string") return [];
  const match = /^data:[^;,]+;base64,(.*)$/s.exec(url);
  return match === null ? [] : [{ type: "image", data: match[1] as string, mimeType: mime }];
}

const BUN_GLOBAL = /\bBun\s*\.\s*([A-Za-z_$][\w$]*)/g;

/** `W_BUN_API` when the module's own file uses Bun's global (`Bun.$`, `Bun.file`, …). */
function bunApiWarning(module: DiscoveredModule): Diagnostic | undefined {
  const source = orElse(() => readFileSync(module.resolvedPath, "utf8"), "");
  const used = [...new Set([...source.matchAll(BUN_GLOBAL)].map((match) => `Bun.${match[1]}`))];
  if (used.length === 0) return undefined;
  const them = used.length === 1 ? "it" : "them";
  // A host on Bun runs the tool in-process on Bun, where the call works: only Node hosts and
  // tool hosts (which run under Node) fail it.
  const where =
    process.versions.bun === undefined
      ? `Tooldock runs tools on Node, so a call that reaches ${them} fails.`
      : `it works in this host, which runs on Bun, but a call that reaches ${them} fails where Tooldock runs tools on Node (a host on Node, and the tool host of isolation "process").`;
  return createWarning("W_BUN_API", {
    message: `${module.path} uses ${used.join(", ")}, which only the Bun runtime has: ${where}`,
    ...module,
    hint: "Use Node's APIs instead (Bun.$ → pi.exec or node:child_process, Bun.file → node:fs/promises), which Bun has too.",
  });
}

/** A call's error, with what to do when it is Bun's global missing. */
function bunHint(error: unknown): unknown {
  if (!(error instanceof ReferenceError) || !/\bBun is not defined\b/.test(error.message)) return error;
  return new ReferenceError(
    `${error.message}: this tool uses an API of the Bun runtime, and Tooldock runs tools on Node. Use Node's APIs instead (Bun.$ → node:child_process, Bun.file → node:fs/promises).`,
    { cause: error },
  );
}
