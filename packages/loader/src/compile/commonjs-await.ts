import { compileFunction } from "node:vm";
import { CompileFailure } from "./compile-failure.js";
import { locationAt } from "./import-locations.js";

/**
 * What both compilers say about top-level `await` in a CommonJS file, which Node refuses: esbuild
 * would quietly make it an ES module (`module.exports` then fails at run time), jiti run it anyway.
 */
export const COMMONJS_AWAIT_MESSAGE =
  "Top-level await is not available in a CommonJS module (.cts, .cjs): rename the file to .ts or .mts and export with `export default`, or await inside the factory";

/** True for the files Node and both compilers treat as CommonJS whatever their content. */
export function isCommonJsFile(path: string): boolean {
  return /\.c[jt]s$/.test(path);
}

/**
 * The failure of a CommonJS file whose compiled code (`code`, jiti's transform, lines kept)
 * awaits at its top level, located at that `await` in `source`; `undefined` when it does not.
 */
export function commonJsAwaitFailure(file: string, source: string, code: string): CompileFailure | undefined {
  if (!code.includes("await")) return undefined;
  try {
    compileFunction(code, ["exports", "require", "module", "__filename", "__dirname"], { filename: file });
    return undefined;
  } catch (error) {
    if (!(error instanceof SyntaxError) || !/\bawait\b/.test(error.message)) return undefined;
    const [where = "", codeLine = "", caret = ""] = String(error.stack).split("\n");
    const line = Number(/:(\d+)$/.exec(where)?.[1] ?? "0");
    const sourceLines = source.split("\n");
    const sourceLine = sourceLines[line - 1];
    if (sourceLine === undefined) return new CompileFailure(COMMONJS_AWAIT_MESSAGE, { file });
    // jiti keeps lines but not columns (types are stripped): find the same `await` in the source.
    const nth = (codeLine.slice(0, caret.indexOf("^")).match(/\bawait\b/g) ?? []).length;
    const awaits = [...sourceLine.matchAll(/\bawait\b/g)];
    const column = awaits[nth]?.index ?? awaits[0]?.index ?? Math.max(caret.indexOf("^"), 0);
    const offset = sourceLines.slice(0, line - 1).join("\n").length + (line > 1 ? 1 : 0) + column;
    return new CompileFailure(COMMONJS_AWAIT_MESSAGE, { file, location: locationAt(source, offset) });
  }
}
