import { dirname } from "node:path";
import { pathToFileURL } from "node:url";

const DECLARES_DIRNAME =
  /\b(?:const|let|var|function|class)\s+__(?:dirname|filename)\b|\bimport\b[^;]*\b__(?:dirname|filename)\b/;
const USES_DIRNAME = /\b__(?:dirname|filename)\b/;

/**
 * Rewrites a source so that, bundled into the cache, it still sees its own location:
 * `import.meta.url`, `.dirname`, `.filename` become literals, and `__dirname` / `__filename` are
 * declared where used and not declared, on an existing line (line numbers do not change).
 */
export function rewriteSourceLocation(source: string, filePath: string): string {
  // Most files name neither: they are returned as they are, with no pattern run over them.
  let code = source;
  if (code.includes("import.meta."))
    code = code
      .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(filePath).href))
      .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(filePath)))
      .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(filePath));
  if (!code.includes("__dirname") && !code.includes("__filename")) return code;
  if (USES_DIRNAME.test(code) && !DECLARES_DIRNAME.test(code)) {
    const declaration = `var __dirname = ${JSON.stringify(dirname(filePath))}, __filename = ${JSON.stringify(filePath)}; `;
    // A hashbang must stay first: declare on the start of the second line instead.
    const at = code.startsWith("#!") ? code.indexOf("\n") + 1 : 0;
    code = at === 0 && code.startsWith("#!") ? code : `${code.slice(0, at)}${declaration}${code.slice(at)}`;
  }
  return code;
}
