import type { SourceFile } from "./collect-files.js";
import { decodeUtf8 } from "./decode-utf8.js";
import type { AstEditFileSystem } from "./file-system.js";
import { hashContent } from "./hash-content.js";
import { isInsideFolder } from "./inside-folder.js";
import { fileTooLargeError, previewTooLargeError, type RewriteLimits } from "./limits.js";
import { type FileIdentity, readRegularFile, sameFile } from "./read-regular-file.js";
import { checkPattern, patternSyntaxError, type RewriteOperation, rewriteSource } from "./rewrite.js";
import { unifiedDiff } from "./unified-diff.js";
import { yieldToEventLoop } from "./yield-to-event-loop.js";

/** The rewrite of one file as previewed: what it held, what it will hold, and the diff. */
export interface FileRewrite extends SourceFile {
  /** The file's real path at preview time (inside the real `cwd`): apply writes there and nowhere else. */
  realPath: string;
  /** The file read at preview time; apply refuses when `realPath` names another one. Updated when a failed apply puts the text back. */
  identity: FileIdentity;
  /** SHA-256 of the bytes read at preview time; apply refuses the file when it differs. */
  hash: string;
  original: string;
  rewritten: string;
  replacements: number;
  /** Unified diff from `a/<path>` to `b/<path>`. */
  diff: string;
}

/** Everything a preview found, before anything is written. */
export interface RewritePlan {
  /** The real path of `cwd` at preview time. */
  realCwd: string;
  /** The files that change, in path order. */
  files: FileRewrite[];
  replacements: number;
  /** Replacements per operation, in the order of the call's `ops`. */
  perOperation: number[];
  /** How many files were parsed. */
  scannedFiles: number;
  /** How many files were skipped (not read, not UTF-8, swapped while read), each with a warning. */
  skippedFiles: number;
  /** True when the rewrite stopped at `limit`: more matches may remain. */
  limitReached: boolean;
  /** Patterns that matched nothing and do not parse in a scanned language: likely typos. */
  patternWarnings: string[];
  /** Other notes for the model, such as files that could not be read. */
  warnings: string[];
}

/** What {@link planRewrite} works on and within. */
export interface PlanRequest {
  fileSystem: AstEditFileSystem;
  /** The real path of the working directory. */
  realCwd: string;
  files: readonly SourceFile[];
  /** Symbolic links the search met and did not follow (see `collectFiles`): skipped, each with a warning. */
  links?: readonly string[];
  operations: readonly RewriteOperation[];
  limit?: number;
  limits: RewriteLimits;
  signal?: AbortSignal | undefined;
}

/**
 * Runs `operations` over `files` in memory and returns what would change. Reads each file
 * once (regular files only, UTF-8 only: others are skipped with a warning and keep every
 * byte); writes nothing. It lets the event loop run between files and steps and stops when
 * `signal` is aborted.
 *
 * @throws {AstEditError} `E_AST_EDIT_PATTERN` when ast-grep refuses a pattern (before any
 *   read); `E_AST_EDIT_LIMIT` when a rewritten file or the preview outgrows `limits`.
 */
export async function planRewrite(request: PlanRequest): Promise<RewritePlan> {
  const { fileSystem, files, operations, limits, signal } = request;
  const limit = request.limit ?? Number.POSITIVE_INFINITY;
  const languages = new Set(files.map((file) => file.language));
  for (const language of languages) {
    for (const [index, operation] of operations.entries()) checkPattern(language, operation, index);
  }

  const plan: RewritePlan = {
    realCwd: request.realCwd,
    files: [],
    replacements: 0,
    perOperation: operations.map(() => 0),
    scannedFiles: 0,
    skippedFiles: 0,
    limitReached: false,
    patternWarnings: [],
    warnings: [],
  };
  let previewBytes = 0;
  for (const file of files) {
    await yieldToEventLoop(signal);
    if (plan.replacements >= limit) break;
    const skip = (reason: string) => {
      plan.skippedFiles++;
      plan.warnings.push(`Skipped ${file.relativePath}: ${reason}.`);
    };
    let read: Awaited<ReturnType<typeof readRegularFile>>;
    try {
      read = await readRegularFile(fileSystem, file.absolutePath, { maxBytes: limits.maxFileBytes });
    } catch (error) {
      skip(error instanceof Error ? error.message : String(error));
      continue;
    }
    if (read.kind === "refused") {
      skip(read.reason);
      continue;
    }
    const original = decodeUtf8(read.bytes);
    if (original === undefined) {
      skip(
        "it is not valid UTF-8 text, and ast_edit rewrites only UTF-8 files (every byte of it was left as it is)",
      );
      continue;
    }
    signal?.throwIfAborted();
    const outcome = await rewriteSource(file.language, original, operations, {
      budget: limit - plan.replacements,
      maxLength: limits.maxFileBytes,
      signal,
      fileName: file.relativePath,
    });
    plan.scannedFiles++;
    outcome.perOperation.forEach((count, index) => {
      plan.perOperation[index] = (plan.perOperation[index] ?? 0) + count;
    });
    if (outcome.replacements === 0 || outcome.output === original) continue;
    const rewrittenBytes = Buffer.byteLength(outcome.output, "utf8");
    if (rewrittenBytes > limits.maxFileBytes) throw fileTooLargeError(file.relativePath, limits.maxFileBytes);
    const realPath = await realPathInside(fileSystem, request.realCwd, file.absolutePath, read.identity);
    if (typeof realPath !== "string") {
      skip(realPath.reason);
      continue;
    }
    await yieldToEventLoop(signal);
    const diff = unifiedDiff(file.relativePath, original, outcome.output, outcome.changes);
    previewBytes += rewrittenBytes + diff.length;
    if (previewBytes > limits.maxPreviewBytes)
      throw previewTooLargeError(file.relativePath, plan.files.length + 1, limits.maxPreviewBytes);
    plan.replacements += outcome.replacements;
    plan.files.push({
      ...file,
      realPath,
      identity: read.identity,
      hash: hashContent(read.bytes),
      original,
      rewritten: outcome.output,
      replacements: outcome.replacements,
      diff,
    });
  }
  for (const link of request.links ?? []) {
    plan.skippedFiles++;
    plan.warnings.push(
      `Skipped ${link}: a symbolic link, which a folder search does not follow; pass the file it leads to as path.`,
    );
  }
  plan.limitReached = plan.replacements >= limit;
  plan.perOperation.forEach((count, index) => {
    const operation = operations[index];
    if (count > 0 || !operation || plan.limitReached) return;
    for (const language of languages) {
      const syntaxError = patternSyntaxError(language, operation.pat);
      if (syntaxError) {
        plan.patternWarnings.push(
          `ops[${index}].pat matched nothing and does not parse as ${language} (${syntaxError}). ` +
            "Write it as complete code in that language, e.g. `foo($A)` rather than `foo($A`.",
        );
      }
    }
  });
  return plan;
}

/**
 * The real path of the file read from `path`, when it is inside `realCwd` and is still the
 * file with `identity`; otherwise why not (the path was swapped while it was read).
 */
async function realPathInside(
  fileSystem: AstEditFileSystem,
  realCwd: string,
  path: string,
  identity: FileIdentity,
): Promise<string | { reason: string }> {
  try {
    const realPath = await fileSystem.realpath(path);
    if (!isInsideFolder(realCwd, realPath))
      return { reason: `it resolves to ${realPath}, outside the working directory ${realCwd}` };
    const stats = await fileSystem.lstat(realPath, { bigint: true });
    if (!stats.isFile() || !sameFile({ device: stats.dev, inode: stats.ino }, identity))
      return { reason: "it was replaced while it was read" };
    return realPath;
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}
