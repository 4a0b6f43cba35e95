import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import type { SourceFile } from "./collect-files.js";
import type { AstEditFileSystem } from "./file-system.js";
import { hashContent } from "./hash-content.js";
import { checkPattern, patternSyntaxError, type RewriteOperation, rewriteSource } from "./rewrite.js";

/** The rewrite of one file as previewed: what it held, what it will hold, and the diff. */
export interface FileRewrite extends SourceFile {
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
  /** The files that change, in path order. */
  files: FileRewrite[];
  replacements: number;
  /** Replacements per operation, in the order of the call's `ops`. */
  perOperation: number[];
  /** How many files were parsed. */
  scannedFiles: number;
  /** True when the rewrite stopped at `limit`: more matches may remain. */
  limitReached: boolean;
  /** Patterns that matched nothing and do not parse in a scanned language: likely typos. */
  patternWarnings: string[];
  /** Other notes for the model, such as files that could not be read. */
  warnings: string[];
}

/**
 * Runs `operations` over `files` in memory and returns what would change. Reads each file
 * once; writes nothing.
 *
 * @throws {AstEditError} `E_AST_EDIT_PATTERN` when ast-grep refuses a pattern (before any read).
 */
export async function planRewrite(
  fileSystem: AstEditFileSystem,
  files: readonly SourceFile[],
  operations: readonly RewriteOperation[],
  limit = Number.POSITIVE_INFINITY,
  signal?: AbortSignal,
): Promise<RewritePlan> {
  const languages = new Set(files.map((file) => file.language));
  for (const language of languages) {
    for (const [index, operation] of operations.entries()) checkPattern(language, operation, index);
  }

  const plan: RewritePlan = {
    files: [],
    replacements: 0,
    perOperation: operations.map(() => 0),
    scannedFiles: 0,
    limitReached: false,
    patternWarnings: [],
    warnings: [],
  };
  for (const file of files) {
    signal?.throwIfAborted();
    if (plan.replacements >= limit) break;
    let bytes: Buffer;
    try {
      bytes = await fileSystem.readFile(file.absolutePath);
    } catch (error) {
      plan.warnings.push(
        `Skipped ${file.relativePath}: ${error instanceof Error ? error.message : String(error)}`,
      );
      continue;
    }
    const original = bytes.toString("utf8");
    const outcome = rewriteSource(file.language, original, operations, limit - plan.replacements);
    plan.scannedFiles++;
    outcome.perOperation.forEach((count, index) => {
      plan.perOperation[index] = (plan.perOperation[index] ?? 0) + count;
    });
    if (outcome.replacements === 0 || outcome.output === original) continue;
    plan.replacements += outcome.replacements;
    plan.files.push({
      ...file,
      hash: hashContent(bytes),
      original,
      rewritten: outcome.output,
      replacements: outcome.replacements,
      diff: unifiedDiff(file.relativePath, original, outcome.output),
    });
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

function unifiedDiff(relativePath: string, original: string, rewritten: string): string {
  return createTwoFilesPatch(
    `a/${relativePath}`,
    `b/${relativePath}`,
    original,
    rewritten,
    undefined,
    undefined,
    {
      context: 3,
      headerOptions: FILE_HEADERS_ONLY,
    },
  );
}
