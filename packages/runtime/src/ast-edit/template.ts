import type { SgNode } from "@ast-grep/napi";

const METAVARIABLE = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;

/**
 * The replacement text for one match: `out` with each `$NAME` replaced by the text its
 * pattern captured and each `$$$NAME` by the source spanned by the captured nodes (so the
 * separators between them are kept). A `$NAME` the pattern did not capture stays as written;
 * a `$$$NAME` that captured nothing is empty. When `out` spans several lines, lines after the
 * first get the indentation of the line the match starts on, so the rewrite lines up with the
 * code around it.
 */
export function expandTemplate(template: string, match: SgNode, source: string): string {
  const indentation = lineIndentation(source, match.range().start.index);
  const indented = template.replace(/\n(?=.)/g, `\n${indentation}`);
  return indented.replace(METAVARIABLE, (written, multipleName?: string, singleName?: string) => {
    if (singleName !== undefined) {
      const node = match.getMatch(singleName);
      if (node) return node.text();
    }
    const nodes = match.getMultipleMatches(multipleName ?? (singleName as string));
    const first = nodes[0];
    const last = nodes[nodes.length - 1];
    if (first && last) return source.slice(first.range().start.index, last.range().end.index);
    // `$$$ARGS` that captured nothing (`foo()` for `foo($$$ARGS)`) is empty text.
    return multipleName !== undefined ? "" : written;
  });
}

/** The leading spaces and tabs of the line containing `index`. */
function lineIndentation(source: string, index: number): string {
  const lineStart = source.lastIndexOf("\n", index - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart, index))?.[0] ?? "";
}
