import type { SgNode } from "@ast-grep/napi";
import type { LineLookup } from "./line-lookup.js";

const METAVARIABLE = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;
/** A line break of `out`, and whether a character other than a line break follows it. */
const LINE_BREAK = /\r?\n/g;

/** One piece of a parsed `out`. */
type TemplatePart =
  | { kind: "text"; text: string }
  /** A line break of `out`; `indent`: a line with text follows, which gets the match's indentation. */
  | { kind: "line-break"; indent: boolean }
  /** `$NAME`; `written` is kept when the pattern captured nothing by that name. */
  | { kind: "single"; name: string; written: string }
  /** `$$$NAME`. */
  | { kind: "multiple"; name: string };

/** An `out` parsed once per operation, so each match costs only its own output. */
export type Template = readonly TemplatePart[];

/** Splits `out` into text, line breaks and metavariables. */
export function parseTemplate(template: string): Template {
  const parts: TemplatePart[] = [];
  const pushText = (text: string) => {
    let position = 0;
    for (const lineBreak of text.matchAll(LINE_BREAK)) {
      if (lineBreak.index > position)
        parts.push({ kind: "text", text: text.slice(position, lineBreak.index) });
      position = lineBreak.index + lineBreak[0].length;
      const next = position < text.length ? text[position] : template[offset + position];
      parts.push({ kind: "line-break", indent: next !== undefined && !/[\r\n\u2028\u2029]/.test(next) });
    }
    if (position < text.length) parts.push({ kind: "text", text: text.slice(position) });
  };
  let offset = 0;
  for (const variable of template.matchAll(METAVARIABLE)) {
    pushText(template.slice(offset, variable.index));
    const [written, multipleName, singleName] = variable;
    parts.push(
      multipleName !== undefined
        ? { kind: "multiple", name: multipleName }
        : { kind: "single", name: singleName as string, written },
    );
    offset = variable.index + written.length;
  }
  pushText(template.slice(offset));
  return parts;
}

/**
 * The replacement text for one match: the template with each `$NAME` replaced by the text
 * its pattern captured and each `$$$NAME` by the source spanned by the captured nodes (so the
 * separators between them are kept); either spelling takes a capture of the other kind. A
 * `$NAME` the pattern did not capture stays as written; a `$$$NAME` that captured nothing is empty. Line breaks of the template become those of the
 * line the match starts on (`\r\n` in a CRLF file), and lines after the first get that line's
 * indentation, so the rewrite lines up with the code around it.
 *
 * Returns `undefined`, without building it, when the text would be longer than `maxLength`.
 */
export function expandTemplate(
  template: Template,
  match: SgNode,
  lines: LineLookup,
  maxLength = Number.POSITIVE_INFINITY,
): string | undefined {
  const start = match.range().start.index;
  let lineBreak: string | undefined;
  let lineStartText: string | undefined;
  const captures = new Map<string, string>();
  const pieces: string[] = [];
  let length = 0;
  for (const part of template) {
    let piece: string;
    if (part.kind === "text") {
      piece = part.text;
    } else if (part.kind === "line-break") {
      lineBreak ??= lines.lineBreak(start);
      lineStartText ??= `${lineBreak}${lines.indentation(start)}`;
      piece = part.indent ? lineStartText : lineBreak;
    } else {
      const key = `${part.kind}:${part.name}`;
      let captured = captures.get(key);
      if (captured === undefined) {
        captured = capture(match, lines.source, part);
        captures.set(key, captured);
      }
      piece = captured;
    }
    length += piece.length;
    if (length > maxLength) return undefined;
    pieces.push(piece);
  }
  return pieces.join("");
}

function capture(
  match: SgNode,
  source: string,
  part: Extract<TemplatePart, { kind: "single" | "multiple" }>,
): string {
  // Either spelling gives what the name captured: `$$$A` for a `$A` of the pattern too.
  const node = match.getMatch(part.name);
  if (node) return node.text();
  const nodes = match.getMultipleMatches(part.name);
  const first = nodes[0];
  const last = nodes[nodes.length - 1];
  if (first && last) return source.slice(first.range().start.index, last.range().end.index);
  // `$$$ARGS` that captured nothing (`foo()` for `foo($$$ARGS)`) is empty text.
  return part.kind === "multiple" ? "" : part.written;
}
