import { readFileSync, realpathSync } from "node:fs";
import { isBuiltin } from "node:module";
import { basename, dirname, extname, join, resolve } from "node:path";
import { parse } from "es-module-lexer";
import { createPathsMatcher, parseTsconfig, type TsConfigResult } from "get-tsconfig";
import { orElse } from "../../discover/expand-path.js";
import { remembered } from "../../remembered.js";
import { nearestUp } from "../find-tsconfig.js";
import { canonicalHostSpecifier, isStandInSpecifier } from "../host-modules.js";
import { esmValueImports } from "../host-packages/value-imports.js";
import { rewriteSourceLocation } from "../source-location-rewrite.js";
import { isBareSpecifier, isFile, isInNodeModules } from "../tool-sources.js";

/**
 * Source → ES module JavaScript and its map, or `undefined`: it does not compile. Asynchronous:
 * a graph's transforms run on other threads while the load evaluates the modules before it.
 */
export type Transform = (
  path: string,
  source: string,
  settings: CompileSettings,
) => Promise<{ code: string; map: object } | undefined>;

/** What the tsconfig of a file changes in its output, as the bundler reads it. */
export interface CompileSettings {
  /** `useDefineForClassFields` (as resolved from `target` when not set). */
  defineClassFields: boolean;
  /** `verbatimModuleSyntax`, `preserveValueImports`: imports are removed only when marked `type`. */
  onlyRemoveTypeImports: boolean;
}

/** The settings of a file and the `paths` aliases of its tsconfig, or why it must be bundled. */
interface TsconfigVerdict {
  settings: CompileSettings;
  paths: ((specifier: string) => string[]) | undefined;
}

const DEFAULT_SETTINGS: TsconfigVerdict = {
  settings: { defineClassFields: true, onlyRemoveTypeImports: false },
  paths: undefined,
};

/** Where one import of a graph's file leads. */
export type Link =
  | { kind: "file"; path: string }
  | { kind: "host"; specifier: string }
  /** A built-in or a package of the tool's own, resolved by Node from the file's folder. */
  | { kind: "native" };

/** One source file of a graph, compiled. */
export interface GraphFile {
  code: string;
  /** Its source map, naming the file by URL. */
  map: object;
  /** Each specifier the file imports → where it leads. */
  links: Map<string, Link>;
  /** Names the file imports from each specifier (default and named imports, reexports). */
  imported: Map<string, Set<string>>;
  /** Names the file exports itself, and the specifiers it reexports everything from. */
  exports: Set<string>;
  exportsAllFrom: string[];
}

/** An entry and every file it imports, compiled one by one: what a load needs without a bundle. */
export interface PerFileGraph {
  entry: string;
  /** Entry first. */
  files: Map<string, GraphFile>;
  /** The host specifiers the graph imports (see `ensureHostModules`). */
  hostSpecifiers: Set<string>;
}

/** What the plans of one load share: each folder's tsconfig verdict, each package lookup. */
export interface PlanMemo {
  tsconfigs: Map<string, TsconfigVerdict | string>;
  packages: Map<string, boolean>;
}

/** A memo for the plans of one load (a tsconfig edited between loads is seen by the next). */
export function planMemo(): PlanMemo {
  return { tsconfigs: new Map(), packages: new Map() };
}

/** A graph, or why the entry needs the bundler. */
export type GraphPlan = { graph: PerFileGraph } | { bundle: string };

/** Source extensions compiled file by file (TSX and JSX need the tsconfig's JSX settings: bundled). */
const COMPILED = new Set([".ts", ".mts", ".js", ".mjs"]);
/** What a relative import tries after the path itself, in esbuild's order (its default `resolveExtensions`). */
const RESOLVE_EXTENSIONS = [".tsx", ".ts", ".jsx", ".js", ".css", ".json"];
/** TypeScript's rewrite of a `.js`-style path esbuild applies when the path itself is missing. */
const TS_FOR_JS: Record<string, string[]> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".ts", ".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};
/**
 * `require`, `module.exports`, `module[…]`, `exports.x`, `exports[…]`: CommonJS, which the bundle
 * handles. A file with no `import` or `export` that names `module`, `exports` or `this` at all
 * is taken for CommonJS too (see `lex`). A false match only sends the module to the bundle.
 */
const COMMONJS = /\brequire\b|\bmodule\s*(?:\.\s*exports\b|\[)|\bexports\s*(?:\.\s*[\w$]|\[)/;
const SCRIPT_GLOBALS = /\b(?:module|exports|this)\b/;
/**
 * A decorator or an `accessor` field in compiled code (oxc leaves both as written), lowered by
 * the bundle and unknown to V8: `@` then a name or `(`, not after a name, a quote or a closing
 * bracket (an e-mail address, a scoped package, `${user}@${host}`). One in a string counts
 * too: a false match only sends the module to the bundle. See {@link mayUseDecorators} for
 * comments.
 */
const DECORATOR = /(?<![\w$.)\]}"'`])@[\w$(]|\baccessor\s+[#\w$["'\d]/;
/** The annotations oxc writes (`/* @__PURE__ *\/`), which are no decorators; each on one line. */
const ANNOTATION = /\/\*[^\S\n]*[@#]__[A-Z_]+__[^\S\n]*\*\//g;
/**
 * The graph of `entry` compiled file by file, or why it must be bundled instead: a file whose
 * compile fails, an import that does not resolve to a file or names what its target does not
 * export (the bundler reports each at its place), CommonJS, JSX, decorators, a JSON import, a
 * tsconfig that cannot be resolved, an import of a stand-in package (the bundle's plugin reports
 * its missing names). The tsconfig's `paths`, `useDefineForClassFields` and
 * `verbatimModuleSyntax` apply as the bundler applies them. Only the common case is compiled
 * this way; everything else keeps the bundle's diagnostics and semantics.
 */
export async function planPerFile(
  entry: string,
  transform: Transform,
  memo: PlanMemo = planMemo(),
): Promise<GraphPlan> {
  const files = new Map<string, GraphFile>();
  const hostSpecifiers = new Set<string>();
  // Level by level: the files one level imports are read here and compiled all at once.
  for (let level = [entry]; level.length > 0; ) {
    const read: Array<{ path: string; text: string; tsconfig: TsconfigVerdict }> = [];
    for (const path of new Set(level)) {
      if (files.has(path)) continue;
      const source = readSource(path, memo);
      if ("bundle" in source) return source;
      read.push({ path, ...source });
    }
    const compiled = await Promise.all(
      read.map(({ path, text, tsconfig }) => transform(path, text, tsconfig.settings)),
    );
    level = [];
    for (const [at, { path, tsconfig }] of read.entries()) {
      const output = compiled[at];
      if (output === undefined) return { bundle: `${path} does not compile` };
      const file = lex(path, output, tsconfig, memo);
      if (typeof file === "string") return { bundle: file };
      for (const [specifier, link] of file.links) {
        if (link.kind === "file") level.push(link.path);
        else if (link.kind === "host") hostSpecifiers.add(specifier);
      }
      files.set(path, file);
    }
  }
  return { graph: { entry, files, hostSpecifiers } };
}

/**
 * Whether compiled code may hold a decorator or an `accessor` field, line by line. Passed over:
 * oxc's annotations, and JSDoc's tags: a line that starts with `*` or `//`, and a block comment
 * that starts a line, up to its end on that line. Nothing else is taken for a comment (a
 * pattern across lines could start inside a string and end past a decorator).
 */
function mayUseDecorators(code: string): boolean {
  // oxc's output of an enum or a class holds its annotations: they alone need no line walk.
  const plain = code.includes("__") ? code.replace(ANNOTATION, "") : code;
  if (!plain.includes("@") && !plain.includes("accessor")) return false;
  return plain.split("\n").some((line) => {
    let text = line.trimStart();
    if (text.startsWith("*") || text.startsWith("//")) return false;
    if (text.startsWith("/*")) {
      const end = text.indexOf("*/", 2);
      if (end === -1) return false;
      text = text.slice(end + 2);
    }
    return DECORATOR.test(text);
  });
}

/** A file's text and tsconfig, or why its entry must be bundled. */
function readSource(
  path: string,
  memo: PlanMemo,
): { text: string; tsconfig: TsconfigVerdict } | { bundle: string } {
  if (!COMPILED.has(extname(path))) return { bundle: `${path} is not compiled file by file` };
  // The nearest folder's verdict, one per folder and load.
  const tsconfig = nearestUp(path, memo.tsconfigs, folderTsconfig, DEFAULT_SETTINGS);
  if (typeof tsconfig === "string") return { bundle: tsconfig };
  const text = orElse<string | undefined>(() => readFileSync(path, "utf8"), undefined);
  if (text === undefined) return { bundle: `${path} cannot be read` };
  // As the bundle sees it: its own location as literals, `__dirname` declared where used.
  return { text: rewriteSourceLocation(text, path), tsconfig };
}

/** One compiled file's imports and exports, or why it must be bundled. */
function lex(
  path: string,
  { code, map }: { code: string; map: object },
  tsconfig: TsconfigVerdict,
  memo: PlanMemo,
): GraphFile | string {
  // What V8 cannot run as an ES module as the bundle would run it (most files name none of
  // CommonJS's words: no pattern is run over them).
  const namesCommonJs = code.includes("require") || code.includes("module") || code.includes("exports");
  if (namesCommonJs && COMMONJS.test(code)) return `${path} may be CommonJS`;
  if (mayUseDecorators(code)) return `${path} may use decorators or accessors`;
  const lexed = orElse<ReturnType<typeof parse> | undefined>(() => parse(code), undefined);
  if (lexed === undefined) return `${path} cannot be read as an ES module`;
  const [imports, exported, , hasModuleSyntax] = lexed;
  if (!hasModuleSyntax && (namesCommonJs || code.includes("this")) && SCRIPT_GLOBALS.test(code))
    return `${path} may be CommonJS`;
  const links = new Map<string, Link>();
  for (const found of imports) {
    // `import.meta.resolve`, or `import.meta` itself: the bundle gives the pack's (see the README).
    if (found.type === "import-meta") return `${path} reads import.meta`;
    if (found.specifier === undefined) return `${path} imports a computed specifier`;
    if (found.phase !== null || (found.type !== "dynamic" && found.attributes !== null))
      return `${path} imports with a phase or attributes`;
    const link = linkOf(path, found.specifier, tsconfig, memo);
    if (link === undefined) return `${path} imports ${found.specifier}, which must be bundled`;
    links.set(found.specifier, link);
  }
  const exports = new Set<string>();
  const exportsAllFrom: string[] = [];
  for (const entry of exported) {
    if (entry.type === "reexport-all") exportsAllFrom.push(entry.from);
    else exports.add(entry.name);
  }
  const imported = esmValueImports(code, (specifier) => links.has(specifier), lexed);
  return { code, map, links, imported, exports, exportsAllFrom };
}

/** Where `specifier` leads from `path`, or `undefined` when the bundle must handle it. */
function linkOf(
  path: string,
  specifier: string,
  tsconfig: TsconfigVerdict,
  memo: PlanMemo,
): Link | undefined {
  if (specifier.startsWith("./") || specifier.startsWith("../"))
    return ownFile(resolveAsBundler(dirname(path), specifier));
  if (isBuiltin(specifier)) return { kind: "native" };
  if (canonicalHostSpecifier(specifier) !== undefined)
    return isStandInSpecifier(specifier) ? undefined : { kind: "host", specifier };
  if (!isBareSpecifier(specifier)) return undefined;
  // A `paths` alias: the first candidate found is what the bundler takes (the tool's own
  // source, or else something only the bundle handles); none found, the package is looked up.
  for (const candidate of tsconfig.paths?.(specifier) ?? []) {
    const target = resolveAsBundler(dirname(candidate), `./${basename(candidate)}`);
    if (target !== undefined) return ownFile(target);
  }
  // oxc's helpers (`using` lowered) must not link to whatever copy a project has.
  if (specifier.startsWith("@oxc-project/")) return undefined;
  return nodeResolvesAsBundler(dirname(path), specifier, memo.packages) ? { kind: "native" } : undefined;
}

/** A resolved file as a link, when it is one of the tool's own sources compiled file by file. */
function ownFile(target: string | null | undefined): Link | undefined {
  if (typeof target !== "string" || !COMPILED.has(extname(target)) || isInNodeModules(target))
    return undefined;
  return { kind: "file", path: target };
}

/**
 * The file a relative specifier names, as esbuild resolves it: the path, its default
 * `resolveExtensions` in order (`.tsx` first), TypeScript's `.js` → `.ts`, then `index`, to the
 * real path; a specifier that names a folder (`./lib/`, `.`, `..`) only its `index`. Not
 * `tool-sources`' `resolveRelative`, which finds a diagnostic's file in TypeScript's order: the
 * file-by-file graph must hold the very files the bundle would. `undefined` when nothing is
 * found, `null` when what is found is for the bundle to read (a folder's package.json).
 */
function resolveAsBundler(folder: string, specifier: string): string | null | undefined {
  const base = resolve(folder, specifier);
  const extension = extname(base);
  const rewritten = TS_FOR_JS[extension] ?? [];
  const inFolder = RESOLVE_EXTENSIONS.map((tried) => join(base, `index${tried}`));
  const candidates = /(?:^|\/)\.{0,2}$/.test(specifier)
    ? inFolder
    : [
        base,
        ...RESOLVE_EXTENSIONS.map((tried) => base + tried),
        ...rewritten.map((tried) => base.slice(0, -extension.length) + tried),
        ...inFolder,
      ];
  // A folder with a package.json names its entry there: the bundle reads it.
  if (isFile(join(base, "package.json"))) return null;
  const found = candidates.find(isFile);
  if (found === undefined) return undefined;
  // One module per file, however it is reached, as in the bundle (one system call: Node's
  // `realpathSync` makes an `lstat` per folder of the path).
  return orElse<string | null>(() => realpathSync.native(found), null);
}

/** Whether Node finds what the bundler does for a package import from `folder` ({@link exportsAsBundler}). */
function nodeResolvesAsBundler(folder: string, specifier: string, memo: Map<string, boolean>): boolean {
  const parts = specifier.split("/");
  const length = specifier.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, length).join("/");
  const subpath = parts.length > length ? `./${parts.slice(length).join("/")}` : ".";
  const installed = (at: string) => {
    const manifest = join(at, "node_modules", name, "package.json");
    return isFile(manifest) ? exportsAsBundler(manifest, subpath) : undefined;
  };
  return remembered(memo, `${folder}\0${name}\0${subpath}`, () =>
    nearestUp<boolean>(join(folder, "node_modules"), new Map(), installed, false),
  );
}

/** The conditions esbuild matches for an `import` on the `node` platform, and Node's own. */
const BUNDLER_CONDITIONS = new Set(["import", "module", "node", "default"]);
const NODE_CONDITIONS = new Set(["import", "node", "module-sync", "node-addons", "default"]);

/**
 * Whether Node resolves `subpath` of the package as the bundler does: through `exports`, to
 * the same file under esbuild's conditions and under Node's (a key, or a `*` pattern; a
 * condition that only one of them matches, a `null` target or none at all leave it to the
 * bundle), or, without `exports`, only the package itself (its `main`; Node tries no
 * extension for a subpath there).
 */
function exportsAsBundler(manifest: string, subpath: string): boolean {
  let exports: unknown;
  try {
    exports = (JSON.parse(readFileSync(manifest, "utf8")) as { exports?: unknown }).exports;
  } catch {
    return false;
  }
  if (exports === undefined) return subpath === ".";
  const isMap =
    exports !== null &&
    typeof exports === "object" &&
    !Array.isArray(exports) &&
    Object.keys(exports).some((key) => key.startsWith("."));
  // Anything else is the sugar for `{ ".": exports }`.
  const entry = subpathTarget(isMap ? (exports as Record<string, unknown>) : { ".": exports }, subpath);
  if (entry === undefined) return false;
  const bundler = conditionTarget(entry.target, BUNDLER_CONDITIONS, entry.star);
  return (
    typeof bundler === "string" && bundler === conditionTarget(entry.target, NODE_CONDITIONS, entry.star)
  );
}

/**
 * The target an `exports` map gives `subpath`: its key, or the `*` pattern Node picks (the
 * longest part before the `*`, then the longest key).
 */
function subpathTarget(
  map: Record<string, unknown>,
  subpath: string,
): { target: unknown; star?: string } | undefined {
  if (Object.hasOwn(map, subpath) && !subpath.includes("*")) return { target: map[subpath] };
  let best: { key: string; star: number } | undefined;
  for (const key of Object.keys(map)) {
    const star = key.indexOf("*");
    if (star === -1 || key.indexOf("*", star + 1) !== -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (subpath.length < key.length - 1 || !subpath.startsWith(prefix) || !subpath.endsWith(suffix)) continue;
    if (best === undefined || star > best.star || (star === best.star && key.length > best.key.length))
      best = { key, star };
  }
  if (best === undefined) return undefined;
  const suffixLength = best.key.length - best.star - 1;
  return { target: map[best.key], star: subpath.slice(best.star, subpath.length - suffixLength) };
}

/** The file a target names under `conditions` (in the order its keys are written), or `null`. */
function conditionTarget(
  target: unknown,
  conditions: ReadonlySet<string>,
  star: string | undefined,
): string | null {
  if (typeof target === "string") return star === undefined ? target : target.replaceAll("*", star);
  if (Array.isArray(target)) return target.length === 0 ? null : conditionTarget(target[0], conditions, star);
  if (target === null || typeof target !== "object") return null;
  for (const [key, value] of Object.entries(target))
    if (conditions.has(key)) return conditionTarget(value, conditions, star);
  return null;
}

/** The verdict of a folder's own tsconfig (or jsconfig), `undefined` when it has neither. */
function folderTsconfig(folder: string): TsconfigVerdict | string | undefined {
  if (isFile(join(folder, "tsconfig.json"))) return readTsconfig(join(folder, "tsconfig.json"));
  const jsconfig = join(folder, "jsconfig.json");
  return isFile(jsconfig) ? `${jsconfig} is read by the bundler` : undefined;
}

function readTsconfig(path: string): TsconfigVerdict | string {
  const config = orElse<TsConfigResult["config"] | undefined>(() => parseTsconfig(path), undefined);
  if (config === undefined) return `${path} cannot be resolved`;
  const options = config.compilerOptions ?? {};
  const matcher = createPathsMatcher({ path, config });
  // As esbuild decides it: the option, else define semantics unless `target` is before ES2022.
  const target = options.target?.toLowerCase();
  const modern = target === undefined || target === "esnext" || /^es20(?:2[2-9]|[3-9]\d)$/.test(target);
  return {
    settings: {
      defineClassFields: options.useDefineForClassFields ?? modern,
      onlyRemoveTypeImports:
        options.verbatimModuleSyntax === true ||
        options.preserveValueImports === true ||
        (options.importsNotUsedAsValues !== undefined && options.importsNotUsedAsValues !== "remove"),
    },
    paths: matcher ?? undefined,
  };
}

/**
 * The first import of the graph that names what its target does not export, or what two of
 * its `export *` give (the bundler fails the build there, Node's linker with no location), given
 * the host modules' export names; `undefined` when every name links. A reexport of everything
 * from a package or a built-in exports what Node finds.
 */
export function missingImport(
  graph: PerFileGraph,
  hostExports: (specifier: string) => ReadonlySet<string>,
): string | undefined {
  /** Each name the file exports → the file it comes from ("" when two `export *` give it). */
  const exportsOf = (path: string, seen = new Set<string>()): Map<string, string> | "any" => {
    const file = graph.files.get(path) as GraphFile;
    const names = new Map([...file.exports].map((name) => [name, path]));
    if (seen.has(path)) return names;
    seen.add(path);
    for (const from of file.exportsAllFrom) {
      const link = file.links.get(from);
      if (link?.kind !== "file") return "any";
      const more = exportsOf(link.path, seen);
      if (more === "any") return "any";
      for (const [name, origin] of more) {
        if (name === "default" || file.exports.has(name)) continue; // its own export wins
        const before = names.get(name);
        names.set(name, before === undefined || before === origin ? origin : "");
      }
    }
    return names;
  };
  for (const [path, file] of graph.files) {
    for (const [specifier, names] of file.imported) {
      const link = file.links.get(specifier);
      if (link?.kind === "host") {
        const available = hostExports(specifier);
        for (const name of names)
          if (!available.has(name)) return `${path} imports ${name} from ${specifier}`;
        continue;
      }
      const available = link?.kind === "file" ? exportsOf(link.path) : "any";
      if (available === "any") continue;
      for (const name of names) {
        const origin = available.get(name);
        if (origin === undefined) return `${path} imports ${name} from ${specifier}`;
        if (origin === "") return `${path} imports ${name} from ${specifier}, which two \`export *\` provide`;
      }
    }
  }
  return undefined;
}
