import { readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Loader, OnLoadResult, OnResolveArgs, PartialMessage, Plugin } from "esbuild";
import { isWithin } from "../discover/expand-path.js";
import { bunOnlyNote } from "./bun-only.js";
import { COMMONJS_AWAIT_MESSAGE, isCommonJsFile } from "./commonjs-await.js";
import {
  canonicalHostSpecifier,
  ensureHostModules,
  hostModuleSource,
  isStandInSpecifier,
  missingExportsPath,
  missingHostExports,
  requiredHostSpecifiers,
  STAND_IN_SPECIFIERS,
} from "./host-modules.js";
import { esmValueImports, type ValueImports } from "./host-packages/value-imports.js";
import { type InputRecord, readInput } from "./read-input.js";
import { rewriteSourceLocation } from "./source-location-rewrite.js";
import { isBareSpecifier, isInNodeModules, SOURCE_EXTENSIONS } from "./tool-sources.js";

const SKIP = Symbol("tooldock.skip-resolve");
/** esbuild's loader of each source extension: `.mts` and `.cts` load as `ts`, `.mjs` and `.cjs` as `js`. */
const SOURCE_LOADERS = Object.fromEntries(
  SOURCE_EXTENSIONS.map((extension) => [extension, extension.replace(/^\.[cm]?/, "") as Loader]),
);

/** What the plugin saw while bundling (one or many entries); feeds the cache index. */
export interface BundleRecord {
  /** External package imports: the path written into the bundle → the absolute file path. */
  externals: Map<string, string>;
  /** Every source file the plugin read, hashed as it was handed to esbuild. */
  sources: Map<string, InputRecord>;
  /** Source files that cannot share a pack (see `buildPacks`); filled only when given. */
  unpackable?: Set<string>;
  /** Host specifiers each source file's `require` calls name (see `requiredHostSpecifiers`). */
  requiredHosts?: Map<string, string[]>;
}

/** `import.meta` left after the location rewrite (only `import.meta.resolve` is). */
const IMPORT_META = /\bimport\s*\.\s*meta\b/;
/** `require`, which a bundle gets from its own banner (`createRequire(<entry>)`), a pack does not. */
const REQUIRE = /\brequire\b/;

/** The namespace of host virtual modules (metafile inputs `tooldock-host:<specifier>`). */
export const HOST_NAMESPACE = "tooldock-host";

/**
 * The esbuild plugin of the default compiler:
 * - host specifiers (`@tooldock/sdk`, `zod`, the compatibility aliases, …) become virtual
 *   modules that read the host's single copies;
 * - other bare imports stay external, resolved by esbuild and written as absolute file URLs
 *   (paths for `require`), so a pack imports the tool's own dependencies wherever the cache is;
 * - source files keep seeing their own location (see `rewriteSourceLocation`), and are hashed
 *   as they are read, so the cache index needs no second read.
 * Only bare specifiers and relative `import()`s reach `onResolve`.
 */
export function createToolBundlePlugin(record: BundleRecord, readRoots?: readonly string[]): Plugin {
  /** A file outside `readRoots` fails the build (what a tool host's pack may not hold). */
  const refuse = (path: string): OnLoadResult | undefined => {
    if (readRoots === undefined || readRoots.some((root) => isWithin(path, root))) return undefined;
    const text = `${path} lies outside the folders the tool host may read, so an isolated module cannot import it. Keep the file inside the module's folder, or widen isolation.allowRead.`;
    return { errors: [{ text }] };
  };
  return {
    name: "tooldock",
    setup(build) {
      /** Names each source file reads from stand-in packages (found as it is loaded). */
      const valueImports = new Map<string, ValueImports>();
      /** esbuild's own resolution of an import (this plugin skips it). */
      const resolveAsEsbuild = ({ path, kind, resolveDir, importer }: OnResolveArgs) =>
        build.resolve(path, { kind, resolveDir, importer, pluginData: SKIP });
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === SKIP || args.kind === "entry-point") return undefined;
        const canonical = canonicalHostSpecifier(args.path);
        if (canonical !== undefined && isStandInSpecifier(args.path)) {
          // Names the stand-in lacks are exported as `undefined` and reported when evaluated.
          await ensureHostModules([args.path]);
          const used = valueImports.get(args.importer)?.get(args.path) ?? [];
          const missing = missingHostExports(args.path, used);
          return { path: missingExportsPath(args.path, missing), namespace: HOST_NAMESPACE };
        }
        if (canonical !== undefined) return { path: canonical, namespace: HOST_NAMESPACE };
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        const bunOnly = bunOnlyNote(args.path);
        if (bunOnly !== "") return { errors: [{ text: `Could not resolve "${args.path}"${bunOnly}` }] };
        if (!isBareSpecifier(args.path)) return undefined;
        const resolved = await resolveAsEsbuild(args);
        // Unresolvable: fall through so esbuild reports "Could not resolve" at the import.
        if (resolved.errors.length > 0 || resolved.path === "") return undefined;
        // tsconfig `paths` aliases to the tool's own sources are bundled like relative imports.
        if (!resolved.external && !isInNodeModules(resolved.path)) return { path: resolved.path };
        if (args.kind === "import-statement") record.unpackable?.add(args.importer);
        if (resolved.external) return { path: resolved.path, external: true };
        const path = args.kind === "require-call" ? resolved.path : pathToFileURL(resolved.path).href;
        record.externals.set(path, resolved.path);
        return { path, external: true };
      });

      // A relative `import()` of a file that does not exist is left for run time, where it
      // fails in the code that runs it (the factory, a call, or the import when at the top
      // level), as natively and under jiti; esbuild would fail the whole build. It becomes the
      // file's absolute URL, recorded as an external so the bundle is rebuilt until it exists.
      build.onResolve({ filter: /^\.{1,2}(?:\/|$)/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.pluginData === SKIP) return undefined;
        const resolved = await resolveAsEsbuild(args);
        if (resolved.errors.length === 0 && resolved.path !== "") return undefined;
        const target = resolve(args.resolveDir, args.path);
        const url = pathToFileURL(target).href;
        record.externals.set(url, target);
        return { path: url, external: true };
      });

      build.onLoad({ filter: /.*/, namespace: HOST_NAMESPACE }, async (args) => {
        await ensureHostModules([args.path]);
        return { contents: hostModuleSource(args.path), loader: "js" };
      });

      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        const refused = refuse(args.path);
        if (refused !== undefined) return refused;
        if (isInNodeModules(args.path)) return undefined;
        const loader = SOURCE_LOADERS[extname(args.path)];
        if (loader === undefined) return undefined;
        const { bytes, record: input } = readInput(args.path);
        record.sources.set(args.path, input);
        const text = bytes.toString("utf8");
        const transform = (format: "esm" | "cjs") =>
          build.esbuild.transform(text, { loader, format, sourcefile: args.path, logLevel: "silent" });
        if (isCommonJsFile(args.path) && text.includes("await")) {
          const errors = await commonJsAwaitErrors(transform, args.path);
          if (errors.length > 0) return { errors };
        }
        // `require` is renamed by `define`, so esbuild resolves none of its calls: the host
        // modules they name are registered now and listed with the member.
        const required = requiredHostSpecifiers(text);
        if (required.length > 0) {
          await ensureHostModules(required);
          record.requiredHosts ??= new Map();
          record.requiredHosts.set(args.path, required);
        }
        if (STAND_IN_SPECIFIERS.some((specifier) => text.includes(specifier))) {
          valueImports.set(args.path, await standInImports(transform, text));
        }
        let contents = rewriteSourceLocation(text, args.path);
        // esbuild reads the map a source names by itself, outside onLoad: for a tool host's
        // pack, no source names one (it could name any file, or /dev/zero).
        if (readRoots !== undefined) contents = withoutSourceMapComments(contents);
        if (record.unpackable !== undefined && (IMPORT_META.test(contents) || REQUIRE.test(contents)))
          record.unpackable.add(args.path);
        return { contents, loader };
      });

      // Every other file esbuild would read itself (JSON, text, a package's own sources), read
      // here for a tool host's pack: refused outside the roots, and with no map comment.
      if (readRoots !== undefined) {
        build.onLoad({ filter: /.*/, namespace: "file" }, (args) => {
          const refused = refuse(args.path);
          if (refused !== undefined) return refused;
          const loader = DEFAULT_LOADERS[extname(args.path)];
          if (loader === undefined) return undefined; // esbuild reports that it has no loader
          const text = readFileSync(args.path, "utf8");
          return { contents: loader === "json" ? text : withoutSourceMapComments(text), loader };
        });
      }
    },
  };
}

/** esbuild's loader for each extension it reads by default. */
const DEFAULT_LOADERS: Record<string, Loader> = { ...SOURCE_LOADERS, ".json": "json", ".txt": "text" };

/** `//# sourceMappingURL=…` and `/*# sourceMappingURL=… *\/` comments, which make esbuild read a map. */
const SOURCE_MAP_COMMENT =
  /\/(?:\/[#@][ \t]*sourceMappingURL=[^\r\n]*|\*[#@][ \t]*sourceMappingURL=[\s\S]*?\*\/)/g;

/** `text` with its source map comments blanked out (same length, so columns stay). */
function withoutSourceMapComments(text: string): string {
  return text.replace(SOURCE_MAP_COMMENT, (comment) => comment.replace(/[^\r\n]/g, " "));
}

/**
 * The names a source reads from stand-in packages, in esbuild's transform of it (a type-only
 * import dropped as the build drops it); in the raw source when that fails (the build says why).
 */
async function standInImports(
  transform: (format: "esm") => Promise<{ code: string }>,
  text: string,
): Promise<ValueImports> {
  try {
    return esmValueImports((await transform("esm")).code, isStandInSpecifier);
  } catch {
    return esmValueImports(text, isStandInSpecifier);
  }
}

/** Top-level `await` in a CommonJS file (`COMMONJS_AWAIT_MESSAGE`): its CommonJS transform fails there. */
async function commonJsAwaitErrors(
  transform: (format: "cjs") => Promise<unknown>,
  file: string,
): Promise<PartialMessage[]> {
  try {
    await transform("cjs");
    return [];
  } catch (error) {
    const messages = (error as { errors?: PartialMessage[] }).errors ?? [];
    const found = messages.find((message) => /top-level await/i.test(message.text ?? ""));
    if (found === undefined) return []; // other errors: the build reports them
    return [{ text: COMMONJS_AWAIT_MESSAGE, location: found.location ? { ...found.location, file } : null }];
  }
}
