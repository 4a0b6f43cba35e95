import {
  type CustomTool,
  type CustomToolContext,
  type CustomToolDurableAction,
  type CustomToolPendingAction,
  errorResult,
  type PendingActionHandlerContext,
} from "@tooldock/sdk";
import { type AstEditFileSystem, resolveFileSystem } from "./file-system.js";
import { resolveStateDirectory } from "./journal-folder.js";
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_PREVIEW_BYTES, type RewriteLimits } from "./limits.js";
import { type AstEditParameters, astEditParameters } from "./parameters.js";
import type { PreviewPush, StoredRewriteRequest } from "./preview.js";
import { recoverInterruptedApplies } from "./recover.js";

/** The name `ast_edit` registers under and stages its pending actions as. */
export const AST_EDIT_TOOL_NAME = "ast_edit";

/** The handler of the durable action a preview stages in a Session (`actions.rewrite`). */
export const REWRITE_HANDLER = "rewrite";

/** Options of {@link createAstEditTool}. */
export interface AstEditToolOptions {
  /** Root of every rewrite: `path` is relative to it and may not leave it. */
  cwd: string;
  /**
   * Where to stage the preview, as an action with `apply` and no handler: for a host that runs
   * the tool outside a Session. Default: the `pushPendingAction` of the context a Tooldock
   * `Session` passes to `execute`, which stages a durable action (the `rewrite` handler and
   * the plan as JSON data): a durable store keeps it, and any process with `ast_edit` loaded
   * applies it.
   */
  pushPendingAction?: (action: CustomToolPendingAction) => void;
  /** Replaces single `node:fs/promises` functions (tests, virtual file systems). */
  fileSystem?: Partial<AstEditFileSystem>;
  /**
   * The per-user state folder; apply journals live in its `ast-edit-journals` folder, which
   * must be private to this user (apply refuses to write otherwise). Default:
   * `TOOLDOCK_STATE_DIR` when set (absolute), else `$XDG_STATE_HOME/tooldock`, else
   * `~/.local/state/tooldock`.
   */
  stateDirectory?: string;
  /** Most characters of diff in the text the model reads; the rest stays in `details`. Default 20000. */
  maxDiffCharacters?: number;
  /**
   * Most bytes of one file: larger files are skipped with a warning, and a rewrite that would
   * make a file larger fails with `E_AST_EDIT_LIMIT`. Default 8 MiB.
   */
  maxFileBytes?: number;
  /**
   * Most bytes of one preview: its rewritten files plus their diffs. Past it the call fails
   * with `E_AST_EDIT_LIMIT` and stages nothing. Default 32 MiB.
   */
  maxPreviewBytes?: number;
}

/** `details` of an `ast_edit` preview (and of a call that made no replacement). */
export interface AstEditDetails {
  replacements: number;
  files: Array<{ path: string; replacements: number; diff: string }>;
  scannedFiles: number;
  limitReached: boolean;
  warnings: string[];
  /** The label of the staged pending action; absent when nothing was staged. */
  pendingLabel?: string;
}

/** What `ast_edit` needs of the context beyond `CustomToolContext`: a Session provides it. */
interface PendingActionContext {
  pushPendingAction?: (action: CustomToolPendingAction | CustomToolDurableAction) => void;
}

const DESCRIPTION = [
  "Structural search-and-replace over source files with ast-grep patterns (TypeScript, TSX, JavaScript/JSX, HTML, CSS).",
  "Each op rewrites every match of `pat` to `out`; `$NAME` captures one node and `$$$NAME` several, and both can be reused in `out`.",
  "The call only previews: it returns a unified diff per file and stages a pending action. Nothing is written until you call `resolve` with `apply` (or `discard`).",
].join(" ");

/**
 * The built-in `ast_edit` tool: previews ast-grep rewrites and stages them as a pending action
 * that `resolve` applies (each file written atomically) or discards.
 *
 * @example
 * ```ts
 * const session = new Session({ cwd });
 * session.register(createAstEditTool({ cwd }), "built-in");
 * await session.execute({ toolCallId: "1", name: "ast_edit",
 *   params: { ops: [{ pat: "console.log($$$A)", out: "logger.info($$$A)" }], path: "src" } });
 * ```
 */
export function createAstEditTool(
  options: AstEditToolOptions,
): CustomTool<typeof astEditParameters, AstEditDetails> {
  const fileSystem = resolveFileSystem(options.fileSystem);
  const stateDirectory = resolveStateDirectory(options.stateDirectory);
  const maxDiffCharacters = options.maxDiffCharacters ?? 20_000;
  const limits: RewriteLimits = {
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    maxPreviewBytes: options.maxPreviewBytes ?? DEFAULT_MAX_PREVIEW_BYTES,
  };
  // Runs once per tool, at the session's start or before the first call, whichever is first.
  let recovery: Promise<string[]> | undefined;
  const recover = () => {
    recovery ??= recoverInterruptedApplies(fileSystem, options.cwd, { stateDirectory }).catch(
      (error: unknown) => [
        `Could not check for an interrupted ast_edit apply in ${options.cwd}: ${error instanceof Error ? error.message : String(error)}.`,
      ],
    );
    return recovery;
  };
  let recoveryReported = false;
  const retries: StoredRewriteRequest["retries"] = new Map();

  return {
    name: AST_EDIT_TOOL_NAME,
    label: "AST Edit",
    description: DESCRIPTION,
    parameters: astEditParameters,
    deferrable: true,
    async onSession(event) {
      if (event.reason === "start") await recover();
    },
    actions: {
      [REWRITE_HANDLER]: {
        async apply(payload: unknown, reason: string, ctx: PendingActionHandlerContext) {
          const engine = await import("./preview.js");
          return engine.applyStoredRewrite({
            payload,
            reason,
            actionId: ctx.actionId,
            fileSystem,
            limits,
            stateDirectory,
            retries,
          });
        },
        async reject(_payload: unknown, _reason: string, ctx: PendingActionHandlerContext) {
          retries.delete(ctx.actionId);
          return undefined;
        },
      },
    },
    async execute(_toolCallId, params: AstEditParameters, _onUpdate, ctx: CustomToolContext, signal) {
      // Outside a Session the host's push gets callbacks; a Session's gets a durable action.
      const fromContext = (ctx as CustomToolContext & PendingActionContext).pushPendingAction;
      const push: PreviewPush | undefined =
        options.pushPendingAction !== undefined
          ? { durable: false, to: options.pushPendingAction }
          : typeof fromContext === "function"
            ? { durable: true, to: fromContext }
            : undefined;
      if (push === undefined) {
        return errorResult(
          "ast_edit must run inside a Tooldock Session (its context stages the preview as a pending action). " +
            "Register it with session.register(createAstEditTool({ cwd })) and call it through session.execute, " +
            "or pass pushPendingAction in the options.",
        );
      }
      let engine: typeof import("./preview.js");
      try {
        engine = await import("./preview.js");
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return errorResult(
          `ast_edit could not load its rewrite engine (@ast-grep/napi and diff): ${reason}. ` +
            "Nothing was changed. Tell the user: reinstall @tooldock/ast-edit so that the @ast-grep/napi binary for this platform is installed.",
        );
      }
      const checked = engine.checkArguments(params);
      if ("content" in checked) return checked;

      const recoveryNotes = await recover();
      const notes = recoveryReported ? [] : recoveryNotes;
      recoveryReported = true;
      return engine.previewRewrite({
        ...checked,
        cwd: options.cwd,
        fileSystem,
        maxDiffCharacters,
        limits,
        stateDirectory,
        push,
        notes,
        signal,
      });
    },
  };
}
