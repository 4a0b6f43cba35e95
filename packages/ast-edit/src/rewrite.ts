import { type Lang, parse, type SgNode } from "@ast-grep/napi";
import { AstEditError } from "./ast-edit-error.js";
import { fileTooLargeError } from "./limits.js";
import { LineLookup } from "./line-lookup.js";
import { expandTemplate, parseTemplate } from "./template.js";
import { applyEdits, composeChanges, type TextChange, type TextEdit } from "./text-changes.js";
import { yieldToEventLoop } from "./yield-to-event-loop.js";

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
  /** Where `output` differs from the source, sorted: what the diff shows. */
  changes: TextChange[];
}

/** Bounds of one {@link rewriteSource} run. */
export interface RewriteOptions {
  /** Most replacements in all. Default: no limit. */
  budget?: number;
  /** Most characters of output after any operation; past it `E_AST_EDIT_LIMIT` is thrown. */
  maxLength?: number;
  /** Checked between operations and every {@link MATCHES_PER_STEP} matches. */
  signal?: AbortSignal | undefined;
  /** Names the text in errors, e.g. `src/a.ts`. */
  fileName?: string;
}

/** Matches rewritten between two turns of the event loop. */
const MATCHES_PER_STEP = 1000;

/**
 * A text longer than this is matched piece by piece: subtrees of at most this many characters,
 * each one native `findAll`, with a turn of the event loop after every piece and the match cap
 * checked after each. One `findAll` over a 900 KB file with `$A.$B` held the event loop 2-4 s
 * and made 84,000 matches (155 MB) before the cap could be checked; a call costs ~50 us (ast-grep
 * compiles the pattern each time), so short texts keep the single call.
 */
const MATCH_PIECE_CHARS = 64 * 1024;

/**
 * Most matches of one operation in one file: past it `E_AST_EDIT_LIMIT`, before they are
 * sorted or rewritten (a pattern that matches nearly every node of a large file held the
 * event loop for seconds and took ~1 GB).
 */
export const MAX_MATCHES_PER_FILE = 50_000;

/** A pattern that is one metavariable and nothing else (`$A`, `$$$ARGS`, `$_`): it matches every node. */
const LONE_METAVARIABLE = /^\s*\${1,3}[A-Z_][A-Z0-9_]*\s*;?\s*$/;

/**
 * Applies `operations` in order to `source`, each on the output of the one before. Matches
 * nested inside another match of the same operation are left alone (the outermost wins, as in
 * ast-grep's CLI), a match whose rewrite equals its text is not counted, and at most `budget`
 * replacements are made in all. Text outside the matches is kept as it is.
 *
 * It lets the event loop run between operations and every {@link MATCHES_PER_STEP} matches,
 * so the session's deadline and the call's signal can stop it, and throws the signal's
 * reason when the signal is aborted.
 *
 * @throws {AstEditError} `E_AST_EDIT_PATTERN` when ast-grep refuses a pattern;
 *   `E_AST_EDIT_LIMIT` when the output would grow past `maxLength` (it stops before building it).
 */
export async function rewriteSource(
  language: Lang,
  source: string,
  operations: readonly RewriteOperation[],
  options: RewriteOptions = {},
): Promise<RewriteOutcome> {
  const budget = options.budget ?? Number.POSITIVE_INFINITY;
  const maxLength = options.maxLength ?? Number.POSITIVE_INFINITY;
  let output = source;
  let changes: TextChange[] = [];
  let replacements = 0;
  const perOperation: number[] = [];
  for (const [index, operation] of operations.entries()) {
    const remaining = budget - replacements;
    if (remaining <= 0) {
      perOperation.push(0);
      continue;
    }
    await yieldToEventLoop(options.signal);
    const root = parse(language, output).root();
    const template = parseTemplate(operation.out);
    const lines = new LineLookup(output);
    const edits: TextEdit[] = [];
    let length = output.length;
    let sinceYield = 0;
    const matches = await findAllInPieces(root, operation, index, language, options);
    for (const match of outermost(matches)) {
      if (edits.length >= remaining) break;
      if (++sinceYield === MATCHES_PER_STEP) {
        sinceYield = 0;
        await yieldToEventLoop(options.signal);
      }
      const { start, end } = match.range();
      const matched = end.index - start.index;
      const replacement = expandTemplate(template, match, lines, maxLength - (length - matched));
      if (replacement === undefined) throw fileTooLargeError(options.fileName, maxLength);
      if (replacement === match.text()) continue;
      length += replacement.length - matched;
      edits.push({ start: start.index, end: end.index, text: replacement });
    }
    if (edits.length > 0) {
      changes = composeChanges(changes, edits);
      output = applyEdits(output, edits);
    }
    replacements += edits.length;
    perOperation.push(edits.length);
  }
  return { output, perOperation, replacements, changes };
}

/**
 * Throws {@link AstEditError} `E_AST_EDIT_PATTERN` when ast-grep refuses the pattern of
 * `operations[index]` in `language`, before any file is read.
 */
export function checkPattern(language: Lang, operation: RewriteOperation, index: number): void {
  if (LONE_METAVARIABLE.test(operation.pat)) {
    throw new AstEditError(
      "E_AST_EDIT_PATTERN",
      `ops[${index}].pat \`${operation.pat.trim()}\` is a metavariable alone: it matches every node of every file. ` +
        "Write the code around it that you mean to match, e.g. `console.log($A)` or `foo($$$ARGS)`, and call ast_edit again.",
    );
  }
  findAll(parse(language, "").root(), operation, index, language);
}

/**
 * Every match of `operation` under `root`, as `root.findAll` finds them (the same nodes: the
 * root itself where it matches, then each subtree), in pieces of at most
 * {@link MATCH_PIECE_CHARS} characters, yielding to the event loop after each piece and
 * throwing `E_AST_EDIT_LIMIT` as soon as more than {@link MAX_MATCHES_PER_FILE} are found.
 */
async function findAllInPieces(
  root: SgNode,
  operation: RewriteOperation,
  index: number,
  language: Lang,
  options: RewriteOptions,
): Promise<SgNode[]> {
  const matches: SgNode[] = [];
  const pending = [root];
  let sinceYield = 0;
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const { start, end } = node.range();
    const size = end.index - start.index;
    if (size <= MATCH_PIECE_CHARS) {
      for (const match of findAll(node, operation, index, language)) matches.push(match);
      sinceYield += size;
    } else {
      if (matchesNode(node, operation, index, language)) matches.push(node);
      const children = node.children();
      for (let child = children.length - 1; child >= 0; child--) pending.push(children[child] as SgNode);
    }
    if (matches.length > MAX_MATCHES_PER_FILE)
      throw tooManyMatchesError(options.fileName, index, matches.length);
    if (sinceYield >= MATCH_PIECE_CHARS && pending.length > 0) {
      sinceYield = 0;
      await yieldToEventLoop(options.signal);
    }
  }
  return matches;
}

function tooManyMatchesError(fileName: string | undefined, index: number, count: number): AstEditError {
  return new AstEditError(
    "E_AST_EDIT_LIMIT",
    `ast_edit stopped: ops[${index}].pat matches at least ${count} times in ${fileName ?? "a file"}, more than the ` +
      `${MAX_MATCHES_PER_FILE} one file may have. Nothing was changed or staged. Narrow the pattern to the code ` +
      "you mean, or the path to fewer files.",
  );
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
  return withPattern(index, language, () => root.findAll(operation.pat));
}

function matchesNode(node: SgNode, operation: RewriteOperation, index: number, language: Lang): boolean {
  return withPattern(index, language, () => node.matches(operation.pat));
}

/** Runs `use` of `ops[index].pat`; a pattern ast-grep refuses is `E_AST_EDIT_PATTERN`. */
function withPattern<T>(index: number, language: Lang, use: () => T): T {
  try {
    return use();
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
  const sorted = matches
    .map((match) => ({ match, range: match.range() }))
    .sort((left, right) => left.range.start.index - right.range.start.index);
  const kept: SgNode[] = [];
  let coveredUntil = -1;
  for (const { match, range } of sorted) {
    if (range.start.index < coveredUntil) continue;
    kept.push(match);
    coveredUntil = range.end.index;
  }
  return kept;
}
