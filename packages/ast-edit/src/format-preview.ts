import { count } from "@tooldock/runtime/internal";
import type { RewritePlan } from "./plan.js";
import type { RewriteOperation } from "./rewrite.js";

/** The pending action's label, exactly as docs/contract.md §4 fixes it. */
export function pendingLabel(plan: RewritePlan): string {
  return `AST Edit: ${count(plan.replacements, "replacement")} in ${count(plan.files.length, "file")}`;
}

/**
 * The text the model reads after a preview: totals, per-operation counts, warnings, then one
 * unified diff per file. Diffs past `maxDiffCharacters` are left out with a note (they stay in
 * the result's `details`).
 */
export function formatPreview(
  plan: RewritePlan,
  operations: readonly RewriteOperation[],
  maxDiffCharacters: number,
): string {
  const lines = [
    `AST Edit preview: ${count(plan.replacements, "replacement")} in ${count(plan.files.length, "file")} (${count(plan.scannedFiles, "file")} scanned). Nothing has been written yet.`,
    'Call resolve with action "apply" to write these changes, or "discard" to drop them.',
    ...operations.map(
      (operation, index) =>
        `ops[${index}] \`${operation.pat}\` -> \`${operation.out}\`: ${count(plan.perOperation[index] ?? 0, "replacement")}`,
    ),
  ];
  if (plan.limitReached)
    lines.push(
      `Stopped at the limit of ${count(plan.replacements, "replacement")}; more matches may remain.`,
    );
  lines.push(...plan.patternWarnings, ...plan.warnings);

  let budget = maxDiffCharacters;
  let omitted = 0;
  const diffs: string[] = [];
  for (const file of plan.files) {
    const section = `${file.relativePath}: ${count(file.replacements, "replacement")}\n${file.diff.trimEnd()}`;
    if (section.length > budget) {
      omitted++;
      continue;
    }
    budget -= section.length;
    diffs.push(section);
  }
  if (omitted > 0) {
    diffs.push(
      `(${count(omitted, "more file diff")} left out to keep this short; the full diffs are in the result details.)`,
    );
  }
  return `${lines.join("\n")}\n\n${diffs.join("\n\n")}`;
}

/** The text of a call that changed nothing; `scope` names where it looked. */
export function formatNoReplacements(plan: RewritePlan, scope: string): string {
  const found =
    plan.scannedFiles > 0
      ? `no pattern matched in ${count(plan.scannedFiles, "file")} under ${scope}`
      : plan.skippedFiles > 0
        ? `found ${count(plan.skippedFiles, "file")} under ${scope} that ${plan.skippedFiles === 1 ? "fits" : "fit"} glob and lang, and skipped ${allOf(plan.skippedFiles)} (why is below)`
        : `found no ts, tsx, js, jsx, html or css file under ${scope} that fits glob and lang`;
  const lines = [
    `No replacements made: ${found}. Nothing was changed.`,
    ...plan.patternWarnings,
    ...plan.warnings,
  ];
  if (plan.patternWarnings.length === 0 && plan.scannedFiles > 0) {
    lines.push(
      "Check the pattern against the code (ast-grep matches syntax, not text: `foo($A)` matches calls with one argument, `foo($$$ARGS)` any number), or widen path/glob/lang.",
    );
  }
  return lines.join("\n");
}

/** `it`, `both` or `all <n>`: every one of `total` things. */
function allOf(total: number): string {
  if (total === 1) return "it";
  return total === 2 ? "both" : `all ${total}`;
}
