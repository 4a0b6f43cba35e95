import { extname } from "node:path";
import { Lang } from "@ast-grep/napi";

/** The languages `ast_edit` parses, with the file extensions inferred for each. */
const LANGUAGE_EXTENSIONS: ReadonlyMap<Lang, readonly string[]> = new Map([
  [Lang.TypeScript, [".ts", ".mts", ".cts"]],
  [Lang.Tsx, [".tsx"]],
  [Lang.JavaScript, [".js", ".mjs", ".cjs", ".jsx"]],
  [Lang.Html, [".html", ".htm"]],
  [Lang.Css, [".css"]],
]);

/** Names the `lang` parameter accepts (lower-cased), mapped to the ast-grep language. */
const LANGUAGE_ALIASES: ReadonlyMap<string, Lang> = new Map([
  ["typescript", Lang.TypeScript],
  ["ts", Lang.TypeScript],
  ["tsx", Lang.Tsx],
  ["javascript", Lang.JavaScript],
  ["js", Lang.JavaScript],
  ["jsx", Lang.JavaScript],
  ["html", Lang.Html],
  ["htm", Lang.Html],
  ["css", Lang.Css],
]);

/** Every value the `lang` parameter accepts, for messages. */
export const SUPPORTED_LANGUAGE_NAMES: readonly string[] = [...LANGUAGE_ALIASES.keys()];

/** The ast-grep language for a `lang` parameter value (case-insensitive), or `undefined`. */
export function languageFromName(name: string): Lang | undefined {
  return LANGUAGE_ALIASES.get(name.trim().toLowerCase());
}

/** The ast-grep language of a file by its extension, or `undefined` when not supported. */
export function languageFromPath(path: string): Lang | undefined {
  const extension = extname(path).toLowerCase();
  for (const [language, extensions] of LANGUAGE_EXTENSIONS) {
    if (extensions.includes(extension)) return language;
  }
  return undefined;
}
