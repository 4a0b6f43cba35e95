import { type AgentToolResult, textResult } from "@tooldock/sdk";
import { writeFilesTogether } from "./apply-transaction.js";
import { AstEditError } from "./ast-edit-error.js";
import type { AstEditFileSystem } from "./file-system.js";
import { hashContent } from "./hash-content.js";
import type { FileRewrite, RewritePlan } from "./plan.js";
import { type RewriteOperation, rewriteSource } from "./rewrite.js";

/** `details` of the result of a successful apply. */
export interface AstEditApplyDetails {
  reason: string;
  replacements: number;
  files: Array<{ path: string; replacements: number }>;
}

/**
 * Makes a previewed rewrite for real. First every previewed file is read again and compared
 * with its preview-time hash: one changed or removed file refuses the whole apply before
 * anything is written. Then the rewrite is run again on the current text and the files are
 * replaced together through an intent journal in `cwd` ({@link writeFilesTogether}): if this
 * process dies midway, the next start rolls the apply back or forward, so an apply changes
 * every file or none. If a write fails in this process, nothing is left changed.
 *
 * @throws {AstEditError} `E_AST_EDIT_STALE` or `E_AST_EDIT_WRITE`; the runtime then keeps the
 *   action pending.
 */
export async function applyPlan(
  fileSystem: AstEditFileSystem,
  cwd: string,
  plan: RewritePlan,
  operations: readonly RewriteOperation[],
  limit: number,
  reason: string,
): Promise<AgentToolResult<AstEditApplyDetails>> {
  const currentTexts = await readUnchanged(fileSystem, plan.files);

  let budget = limit;
  const writes = plan.files.map((file, index) => {
    const outcome = rewriteSource(file.language, currentTexts[index] ?? file.original, operations, budget);
    budget -= outcome.replacements;
    return { file, content: outcome.output, replacements: outcome.replacements };
  });

  await writeFilesTogether(
    fileSystem,
    cwd,
    writes.map(({ file, content }) => ({ ...file, content })),
  );

  const replacements = writes.reduce((sum, write) => sum + write.replacements, 0);
  const files = writes.map(({ file, replacements: count }) => ({
    path: file.relativePath,
    replacements: count,
  }));
  const lines = files.map((file) => `- ${file.path}: ${file.replacements} replacement(s)`);
  return textResult(
    [`Applied AST Edit: wrote ${replacements} replacement(s) in ${files.length} file(s).`, ...lines].join(
      "\n",
    ),
    { reason, replacements, files },
  );
}

/** The current text of each file, in order; throws `E_AST_EDIT_STALE` unless all match their hash. */
async function readUnchanged(
  fileSystem: AstEditFileSystem,
  files: readonly FileRewrite[],
): Promise<string[]> {
  const problems: string[] = [];
  const texts: string[] = [];
  for (const file of files) {
    try {
      const bytes = await fileSystem.readFile(file.absolutePath);
      if (hashContent(bytes) !== file.hash) problems.push(`${file.relativePath} changed since the preview`);
      texts.push(bytes.toString("utf8"));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problems.push(
        `${file.relativePath} ${code === "ENOENT" ? "was removed" : `cannot be read (${code ?? error})`} since the preview`,
      );
    }
  }
  if (problems.length === 0) return texts;
  throw new AstEditError(
    "E_AST_EDIT_STALE",
    `Cannot apply AST Edit: ${problems.join("; ")}. Nothing was written. ` +
      'Call resolve with action "discard" to drop this stale preview, then call ast_edit again to preview the rewrite against the current files.',
  );
}
