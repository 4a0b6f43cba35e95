import type { Lang } from "@ast-grep/napi";
import { Value } from "@sinclair/typebox/value";
import {
  type AgentToolResult,
  type CustomToolDurableAction,
  type CustomToolPendingAction,
  errorResult,
  TooldockError,
  textResult,
} from "@tooldock/sdk";
import { type AstEditApplyDetails, applyPlan } from "./apply-plan.js";
import { AST_EDIT_TOOL_NAME, type AstEditDetails, REWRITE_HANDLER } from "./ast-edit-tool.js";
import { collectFiles } from "./collect-files.js";
import type { AstEditFileSystem } from "./file-system.js";
import { formatNoReplacements, formatPreview, pendingLabel } from "./format-preview.js";
import { languageFromName, SUPPORTED_LANGUAGE_NAMES } from "./languages.js";
import type { RewriteLimits } from "./limits.js";
import { type AstEditParameters, astEditParameters } from "./parameters.js";
import { planRewrite } from "./plan.js";
import type { RewriteOperation } from "./rewrite.js";
import { fromRewritePayload, type PlannedRewrite, toRewritePayload } from "./rewrite-payload.js";

/** The arguments of an `ast_edit` call, checked. */
export interface CheckedArguments {
  params: AstEditParameters;
  language: Lang | undefined;
  limit: number;
  /** A copy: the staged apply must not see later changes to the caller's arguments. */
  operations: RewriteOperation[];
}

/** Checks an `ast_edit` call's arguments: the checked request, or the error result for the model. */
export function checkArguments(
  params: AstEditParameters,
): CheckedArguments | AgentToolResult<AstEditDetails> {
  if (!Value.Check(astEditParameters, params)) {
    const problems = [...Value.Errors(astEditParameters, params)].map(
      (error) => `${error.path || "/"}: ${error.message}`,
    );
    return errorResult(
      `Invalid ast_edit arguments: ${problems.join("; ")}. Pass ops as [{ pat, out }] with a non-empty pat.`,
    );
  }
  const language = params.lang === undefined ? undefined : languageFromName(params.lang);
  if (params.lang !== undefined && language === undefined) {
    return errorResult(
      `ast_edit does not support lang "${params.lang}". Use one of ${SUPPORTED_LANGUAGE_NAMES.join(", ")}, or leave lang out to infer it from each file's extension.`,
    );
  }
  const limit = params.limit ?? Number.POSITIVE_INFINITY;
  return { params, language, limit, operations: params.ops.map(({ pat, out }) => ({ pat, out })) };
}

/** Where a preview is staged: a durable action (`rewrite` handler, JSON payload) in a Session, else callbacks. */
export type PreviewPush =
  | { durable: true; to: (action: CustomToolDurableAction) => void }
  | { durable: false; to: (action: CustomToolPendingAction) => void };

/** One checked `ast_edit` call, as the tool hands it over. */
export interface PreviewRequest extends CheckedArguments {
  cwd: string;
  fileSystem: AstEditFileSystem;
  maxDiffCharacters: number;
  limits: RewriteLimits;
  /** Where apply journals go (see `resolveStateDirectory`). */
  stateDirectory: string;
  /** Stages the preview: a durable action (`rewrite` handler, JSON payload) in a Session, else callbacks. */
  push: PreviewPush;
  /** What recovering an interrupted apply did, for the first result. */
  notes: string[];
  signal: AbortSignal | undefined;
}

/**
 * The work of an `ast_edit` call: plans the rewrite, stages it as a pending action (whose
 * `apply` writes it) and returns the preview. This module holds everything that needs
 * `@ast-grep/napi` and `diff`; the tool imports it on its first call, so importing
 * `@tooldock/ast-edit` loads neither.
 */
export async function previewRewrite(request: PreviewRequest): Promise<AgentToolResult<AstEditDetails>> {
  const { cwd, fileSystem, params, language, limit, limits, operations, push, signal, stateDirectory } =
    request;
  try {
    const { files, realCwd, links } = await collectFiles(fileSystem, {
      cwd,
      path: params.path,
      glob: params.glob,
      language,
      signal,
    });
    const plan = await planRewrite({ fileSystem, realCwd, files, links, operations, limit, limits, signal });
    plan.warnings.unshift(...request.notes);
    const details: AstEditDetails = {
      replacements: plan.replacements,
      files: plan.files.map((file) => ({
        path: file.relativePath,
        replacements: file.replacements,
        diff: file.diff,
      })),
      scannedFiles: plan.scannedFiles,
      limitReached: plan.limitReached,
      warnings: [...plan.patternWarnings, ...plan.warnings],
    };
    if (plan.replacements === 0) {
      const text = formatNoReplacements(plan, params.path ?? "the working directory");
      return plan.patternWarnings.length > 0 ? errorResult(text, details) : textResult(text, details);
    }
    const label = pendingLabel(plan);
    // A call stopped meanwhile (deadline, abort) stages nothing: its answer is already given.
    signal?.throwIfAborted();
    const stagedDetails = { replacements: plan.replacements, files: details.files, ops: operations };
    if (push.durable)
      push.to({
        label,
        handler: REWRITE_HANDLER,
        payload: toRewritePayload(cwd, plan, operations, limit),
        details: stagedDetails,
      });
    else
      push.to({
        label,
        sourceToolName: AST_EDIT_TOOL_NAME,
        details: stagedDetails,
        apply: (reason) =>
          applyPlan({ fileSystem, cwd, plan, operations, limit, limits, stateDirectory }, reason),
      });
    return textResult(formatPreview(plan, operations, request.maxDiffCharacters), {
      ...details,
      pendingLabel: label,
    });
  } catch (error) {
    if (signal?.aborted) return errorResult("ast_edit was aborted before it finished. Nothing was changed.");
    if (TooldockError.isInstance(error)) return errorResult(error.message);
    const reason = error instanceof Error ? error.message : String(error);
    return errorResult(
      `ast_edit failed: ${reason}. Nothing was changed or staged; check path and patterns and try again.`,
    );
  }
}

/** What the durable action's `rewrite` handler needs: the tool's settings and this process's retries. */
export interface StoredRewriteRequest {
  payload: unknown;
  reason: string;
  actionId: string;
  fileSystem: AstEditFileSystem;
  limits: RewriteLimits;
  stateDirectory: string;
  /**
   * Rewrites whose apply failed in this process, by action id: a failed apply that put a
   * file's text back gave it a new identity, which the retry here must recognise.
   */
  retries: Map<string, ReturnType<typeof fromRewritePayload>>;
}

/**
 * Applies a rewrite staged as a durable action, in this process or any other that loaded
 * `ast_edit`: the same checks and writes as the callback form ({@link applyPlan}).
 */
export async function applyStoredRewrite(
  request: StoredRewriteRequest,
): Promise<AgentToolResult<AstEditApplyDetails>> {
  const stored = request.retries.get(request.actionId) ?? fromRewritePayload(request.payload);
  const { cwd, plan, operations, limit } = stored;
  try {
    const result = await applyPlan(
      {
        fileSystem: request.fileSystem,
        cwd,
        plan: plan satisfies PlannedRewrite,
        operations,
        limit,
        limits: request.limits,
        stateDirectory: request.stateDirectory,
      },
      request.reason,
    );
    request.retries.delete(request.actionId);
    return result;
  } catch (error) {
    request.retries.set(request.actionId, stored);
    throw error;
  }
}
