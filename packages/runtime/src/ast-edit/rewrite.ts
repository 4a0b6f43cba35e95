import { type Lang, parse, type SgNode } from "@ast-grep/napi";
import { AstEditError } from "./ast-edit-error.js";
import { expandTemplate } from "./template.js";

/** One structural rewrite: every match of the ast-grep pattern `pat` becomes `out`. */
export interface RewriteOperation {
  pat: string;
  out: string;
}

/** What {@link rewriteSource} did to one source text. */
export interface RewriteOutcome {
  output: string;
  /** Replacements per operation, in the order of `operations`. */
  perOperation: number[];
  replacements: number;
}

/**
 * Applies `operations` in order to `source`, each on the output of the one before. Matches
 * nested inside another match of the same operation are left alone (the outermost wins, as in
 * ast-grep's CLI), a match whose rewrite equals its text is not counted, and at most `budget`
 * replacements are made in all.
 *
 * @throws {AstEditError} `E_AST_EDIT_PATTERN` when ast-grep refuses a pattern.
 */
export function rewriteSource(
  language: Lang,
  source: string,
  operations: readonly RewriteOperation[],
  budget = Number.POSITIVE_INFINITY,
): RewriteOutcome {
  let output = source;
  let replacements = 0;
  const perOperation = operations.map((operation, index) => {
    const remaining = budget - replacements;
    if (remaining <= 0) return 0;
    const root = parse(language, output).root();
    const edits = [];
    for (const match of outermost(findAll(root, operation, index, language))) {
      if (edits.length >= remaining) break;
      const replacement = expandTemplate(operation.out, match, output);
      if (replacement !== match.text()) edits.push(match.replace(replacement));
    }
    if (edits.length > 0) output = root.commitEdits(edits);
    replacements += edits.length;
    return edits.length;
  });
  return { output, perOperation, replacements };
}

/**
 * Throws {@link AstEditError} `E_AST_EDIT_PATTERN` when ast-grep refuses the pattern of
 * `operations[index]` in `language`, before any file is read.
 */
export function checkPattern(language: Lang, operation: RewriteOperation, index: number): void {
  findAll(parse(language, "").root(), operation, index, language);
}

/**
 * Where the pattern, parsed as `language`, has a syntax error: ast-grep then matches nothing
 * without complaint. `undefined` when it parses cleanly.
 */
export function patternSyntaxError(language: Lang, pattern: string): string | undefined {
  const error = parse(language, pattern)
    .root()
    .find({ rule: { kind: "ERROR" } });
  if (!error) return undefined;
  const { line, column } = error.range().start;
  return `syntax error at line ${line + 1}, column ${column + 1} near \`${error.text().slice(0, 40)}\``;
}

function findAll(root: SgNode, operation: RewriteOperation, index: number, language: Lang): SgNode[] {
  try {
    return root.findAll(operation.pat);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AstEditError(
      "E_AST_EDIT_PATTERN",
      `ops[${index}].pat is not a usable ${language} pattern: ${reason} ` +
        "Write one complete piece of code (an expression, a statement or a declaration) with $NAME " +
        "for a single node and $$$NAME for several, e.g. `console.log($$$ARGS)`, and call ast_edit again.",
      { cause: error },
    );
  }
}

/** The matches not inside an earlier match, in source order. */
function outermost(matches: SgNode[]): SgNode[] {
  const sorted = [...matches].sort((left, right) => left.range().start.index - right.range().start.index);
  const kept: SgNode[] = [];
  let coveredUntil = -1;
  for (const match of sorted) {
    const { start, end } = match.range();
    if (start.index < coveredUntil) continue;
    kept.push(match);
    coveredUntil = end.index;
  }
  return kept;
}
