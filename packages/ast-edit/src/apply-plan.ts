import { resolve } from "node:path";
import { count } from "@tooldock/runtime/internal";
import { type AgentToolResult, textResult } from "@tooldock/sdk";
import { writeFilesTogether } from "./apply-transaction.js";
import { AstEditError } from "./ast-edit-error.js";
import type { AstEditFileSystem } from "./file-system.js";
import { hashContent } from "./hash-content.js";
import { isInsideFolder } from "./inside-folder.js";
import { openJournalFolder } from "./journal-folder.js";
import { fileTooLargeError, type RewriteLimits } from "./limits.js";
import { readRegularFile, sameFile } from "./read-regular-file.js";
import { type RewriteOperation, rewriteSource } from "./rewrite.js";
import type { PlannedFile, PlannedRewrite } from "./rewrite-payload.js";

/** `details` of the result of a successful apply. */
export interface AstEditApplyDetails {
  reason: string;
  replacements: number;
  files: Array<{ path: string; replacements: number }>;
}

/** A staged preview and what applying it needs. */
export interface ApplyRequest {
  fileSystem: AstEditFileSystem;
  cwd: string;
  plan: PlannedRewrite;
  operations: readonly RewriteOperation[];
  limit: number;
  limits: RewriteLimits;
  /** Where the apply journal goes (see `resolveStateDirectory`). */
  stateDirectory: string;
}

/**
 * Makes a previewed rewrite for real. First every target is checked again: the working
 * directory and each file must resolve (through any symbolic link) to the same real path as
 * at the preview, inside the working directory, and name the same regular file (device and
 * inode) holding the same bytes (SHA-256). One failed check refuses the whole apply before
 * anything is written. The rewrite is run again on the previewed text before that check (it
 * is the long part, and a folder swapped during it must still be seen), and the files are
 * replaced together, at their real paths, through an intent journal in the private journal
 * folder ({@link writeFilesTogether}, which checks each target's folder again right before
 * its temporary file and before its rename): if this process dies midway, the next start
 * rolls the apply back or forward, so an apply changes every file or none. If a write fails
 * in this process, nothing is left changed. Without a private journal folder it writes nothing.
 *
 * @throws {AstEditError} `E_AST_EDIT_PATH` (a target now resolves outside the working
 *   directory), `E_AST_EDIT_STALE`, `E_AST_EDIT_LIMIT` or `E_AST_EDIT_WRITE`; the runtime
 *   then keeps the action pending.
 */
export async function applyPlan(
  request: ApplyRequest,
  reason: string,
): Promise<AgentToolResult<AstEditApplyDetails>> {
  const { fileSystem, plan, operations, limits } = request;
  // The rewrite (the long part) runs first, on the text the preview read; the check that the
  // files still hold it comes after, right before the writes, so no swap fits in between.
  let budget = request.limit;
  const writes: Array<{ file: PlannedFile; content: string; replacements: number }> = [];
  for (const file of plan.files) {
    // The file must still hold the bytes the preview read (checked below), so its text is `original`.
    const outcome = await rewriteSource(file.language, file.original, operations, {
      budget,
      maxLength: limits.maxFileBytes,
      fileName: file.relativePath,
    });
    if (Buffer.byteLength(outcome.output, "utf8") > limits.maxFileBytes)
      throw fileTooLargeError(file.relativePath, limits.maxFileBytes);
    budget -= outcome.replacements;
    writes.push({ file, content: outcome.output, replacements: outcome.replacements });
  }

  await oneAtATime(async () => {
    const journals = await openJournalFolder(fileSystem, request.stateDirectory, { create: true });
    if (journals.kind !== "ready") {
      throw new AstEditError(
        "E_AST_EDIT_WRITE",
        `Cannot apply AST Edit: it writes a crash journal first, and ${journals.kind === "unsafe" ? journals.reason : `${journals.folder} could not be made`}. ` +
          'Nothing was written. Tell the user; once the folder is fixed, call resolve with "apply" again (or "discard" to drop the change).',
      );
    }
    await checkUnchanged(fileSystem, request.cwd, plan);
    await writeFilesTogether(
      fileSystem,
      journals,
      plan.realCwd,
      writes.map(({ file, content }) => ({
        absolutePath: file.realPath,
        relativePath: file.relativePath,
        original: file.original,
        hash: file.hash,
        identity: file.identity,
        content,
      })),
    );
  });

  const replacements = writes.reduce((sum, write) => sum + write.replacements, 0);
  const files = writes.map(({ file, replacements: fileReplacements }) => ({
    path: file.relativePath,
    replacements: fileReplacements,
  }));
  const lines = files.map((file) => `- ${file.path}: ${count(file.replacements, "replacement")}`);
  return textResult(
    [
      `Applied AST Edit: wrote ${count(replacements, "replacement")} in ${count(files.length, "file")}.`,
      ...lines,
    ].join("\n"),
    { reason, replacements, files },
  );
}

/** The check and writes of the apply running in this process; the next one waits for it. */
let writing: Promise<unknown> = Promise.resolve();

/**
 * Runs `work` after the check and writes of every apply started before it in this process
 * (whichever tool or session started them): two applies of one file at once would both pass
 * the check before either wrote, and the second write would silently drop the first.
 */
function oneAtATime(work: () => Promise<void>): Promise<void> {
  const run = writing.then(work);
  writing = run.catch(() => undefined);
  return run;
}

/**
 * Checks that every file still holds the bytes the preview read. Throws `E_AST_EDIT_PATH` when the working
 * directory or a file now resolves elsewhere than at the preview (outside the working
 * directory, say, after a folder was replaced by a symbolic link), and `E_AST_EDIT_STALE`
 * when a file was changed, replaced or removed.
 */
async function checkUnchanged(
  fileSystem: AstEditFileSystem,
  cwd: string,
  plan: PlannedRewrite,
): Promise<void> {
  const moved: string[] = [];
  const stale: string[] = [];
  const realCwd = await fileSystem.realpath(resolve(cwd)).catch(() => undefined);
  if (realCwd !== plan.realCwd) {
    moved.push(
      realCwd === undefined
        ? `the working directory ${cwd} cannot be resolved any more`
        : `the working directory ${cwd} now resolves to ${realCwd}, not ${plan.realCwd} as at the preview`,
    );
    throw refusal("E_AST_EDIT_PATH", moved);
  }
  for (const file of plan.files) {
    const problem = await checkTarget(fileSystem, plan.realCwd, file);
    if (problem?.moved) moved.push(problem.text);
    else if (problem) stale.push(problem.text);
  }
  if (moved.length > 0) throw refusal("E_AST_EDIT_PATH", [...moved, ...stale]);
  if (stale.length > 0) throw refusal("E_AST_EDIT_STALE", stale);
}

/** Reads one target again; what is wrong with it, if anything. */
async function checkTarget(
  fileSystem: AstEditFileSystem,
  realCwd: string,
  file: PlannedFile,
): Promise<{ moved: boolean; text: string } | undefined> {
  const name = file.relativePath;
  try {
    const realPath = await fileSystem.realpath(file.absolutePath);
    if (!isInsideFolder(realCwd, realPath))
      return {
        moved: true,
        text: `${name} now resolves to ${realPath}, outside the working directory ${realCwd}`,
      };
    if (realPath !== file.realPath)
      return {
        moved: true,
        text: `${name} now resolves to ${realPath}, not ${file.realPath} as at the preview`,
      };
    // Its bytes first: a file saved by renaming a new one over it (as ast_edit and many
    // editors save) is a new file, and what the model must hear is that its text changed.
    // No more bytes than the preview read: a larger file has changed, and is not read whole.
    const read = await readRegularFile(fileSystem, realPath, {
      maxBytes: Buffer.byteLength(file.original, "utf8"),
    });
    if (read.kind === "refused")
      return { moved: false, text: `${name} ${read.tooLarge ? "changed" : read.reason} since the preview` };
    if (hashContent(read.bytes) !== file.hash)
      return { moved: false, text: `${name} changed since the preview` };
    if (!sameFile(read.identity, file.identity))
      return {
        moved: false,
        text: `${name} was replaced by another file since the preview (one with the same text)`,
      };
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      moved: false,
      text: `${name} ${code === "ENOENT" ? "was removed" : `cannot be read (${code ?? error})`} since the preview`,
    };
  }
}

function refusal(code: "E_AST_EDIT_PATH" | "E_AST_EDIT_STALE", problems: readonly string[]): AstEditError {
  const what =
    code === "E_AST_EDIT_PATH" ? "Check what replaced those folders or files (a symbolic link?); " : "";
  return new AstEditError(
    code,
    `Cannot apply AST Edit: ${problems.join("; ")}. Nothing was written. ${what}` +
      'Call resolve with action "discard" to drop this stale preview, then call ast_edit again to preview the rewrite against the current files.',
  );
}
