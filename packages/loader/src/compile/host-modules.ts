import { remembered } from "../remembered.js";
import { hash } from "./hash.js";
import { MISSING_EXPORT_REPORTER_KEY } from "./host-packages/missing-exports.js";
import {
  HOST_PACKAGE_ALIASES,
  type ModuleNamespace,
  OPENCODE_PLUGIN,
  opencodePluginNamespace,
  PI_AI,
  PI_CODING_AGENT,
  PI_TUI,
  piAiNamespace,
  piCodingAgentNamespace,
  piTuiNamespace,
} from "./host-packages/namespaces.js";
import { loadZodModule } from "./load-zod.js";

/**
 * Where the host's single copies of the modules tools share with it are registered: both
 * compilers route the specifiers below there, so a tool's `TSchema` or `TooldockError` is the host's.
 */
export const HOST_MODULES_KEY: unique symbol = Symbol.for("tooldock.host-modules") as never;

/** Where a pack's `require` banner finds {@link hostAwareRequire}: `require("zod")` gets the host's copy. */
export const HOST_REQUIRE_KEY: unique symbol = Symbol.for("tooldock.host-require") as never;

const importers: Record<string, () => Promise<ModuleNamespace>> = {
  "@tooldock/sdk": () => import("@tooldock/sdk"),
  "@sinclair/typebox": () => import("@sinclair/typebox"),
  "@sinclair/typebox/compiler": () => import("@sinclair/typebox/compiler"),
  "@sinclair/typebox/errors": () => import("@sinclair/typebox/errors"),
  "@sinclair/typebox/system": () => import("@sinclair/typebox/system"),
  "@sinclair/typebox/type": () => import("@sinclair/typebox/type"),
  "@sinclair/typebox/value": () => import("@sinclair/typebox/value"),
  // Required, not imported: see loadZodModule.
  zod: async () => loadZodModule("zod"),
  "zod/v4": async () => loadZodModule("zod/v4"),
  "zod/v4/core": async () => loadZodModule("zod/v4/core"),
  "zod/mini": async () => loadZodModule("zod/mini"),
  // Stand-ins for the packages of pi, oh-my-pi and xcsh (see host-packages/namespaces.ts).
  [PI_AI]: async () => piAiNamespace(await sharedModule("@sinclair/typebox")),
  [PI_TUI]: async () => piTuiNamespace(),
  [PI_CODING_AGENT]: async () =>
    piCodingAgentNamespace(await sharedModule("@tooldock/sdk"), await sharedModule("@sinclair/typebox")),
  [OPENCODE_PLUGIN]: async () => opencodePluginNamespace(),
};

async function sharedModule(specifier: string): Promise<ModuleNamespace> {
  return (await ensureHostModules([specifier]))[specifier] as ModuleNamespace;
}

/** The stand-in packages: a name a tool imports from them that they lack is `undefined`, with a warning. */
const STAND_IN_PACKAGES: ReadonlySet<string> = new Set([PI_AI, PI_TUI, PI_CODING_AGENT, OPENCODE_PLUGIN]);

/** True for a specifier served by a stand-in of another host's package (`@mariozechner/pi-tui`, …). */
export function isStandInSpecifier(specifier: string): boolean {
  const canonical = canonicalHostSpecifier(specifier);
  return canonical !== undefined && STAND_IN_PACKAGES.has(canonical);
}

/** Every specifier served by a stand-in, the canonical ones and their aliases. */
export const STAND_IN_SPECIFIERS: readonly string[] = [
  ...STAND_IN_PACKAGES,
  ...Object.keys(HOST_PACKAGE_ALIASES),
];

const MISSING_SUFFIX = "?missing=";

/** The virtual path of a stand-in import that uses names it lacks: `@mariozechner/pi-tui?missing=Foo,Bar`. */
export function missingExportsPath(specifier: string, missing: readonly string[]): string {
  return missing.length === 0
    ? (canonicalHostSpecifier(specifier) ?? specifier)
    : `${specifier}${MISSING_SUFFIX}${[...missing].sort().join(",")}`;
}

/** Splits a virtual module path into the specifier and the missing names it declares. */
function parseHostPath(path: string): { specifier: string; missing: string[] } {
  const at = path.indexOf(MISSING_SUFFIX);
  if (at === -1) return { specifier: path, missing: [] };
  const names = path.slice(at + MISSING_SUFFIX.length).split(",");
  // Only names the plugin can have written: a tool's own "pkg?missing=…" import gets nothing odd.
  return { specifier: path.slice(0, at), missing: names.filter((name) => IDENTIFIER.test(name)) };
}

/** Every specifier served from the host: the shared modules and the compatibility aliases. */
export const HOST_SPECIFIERS: readonly string[] = [
  ...Object.keys(importers),
  ...Object.keys(HOST_PACKAGE_ALIASES),
];

/** The shared module a host specifier stands for (`@oh-my-pi/pi-coding-agent` → `@tooldock/sdk`). */
export function canonicalHostSpecifier(path: string): string | undefined {
  const { specifier } = parseHostPath(path);
  if (Object.hasOwn(importers, specifier)) return specifier;
  return Object.hasOwn(HOST_PACKAGE_ALIASES, specifier) ? HOST_PACKAGE_ALIASES[specifier] : undefined;
}

function registry(): Record<string, ModuleNamespace> {
  const holder = globalThis as unknown as Record<symbol, Record<string, ModuleNamespace> | undefined>;
  holder[HOST_MODULES_KEY] ??= {};
  return holder[HOST_MODULES_KEY];
}

/**
 * Registers a shared module unless a copy is (the first wins), and returns the registered one:
 * `pi` and tools see the same objects even when two copies of the loader share a process. A
 * function is called for the namespace only when none is registered yet.
 */
export function registerHostModule(
  specifier: string,
  namespace: ModuleNamespace | (() => ModuleNamespace),
): ModuleNamespace {
  const modules = registry();
  const canonical = canonicalHostSpecifier(specifier) ?? specifier;
  modules[canonical] ??= typeof namespace === "function" ? namespace() : namespace;
  return modules[canonical];
}

/** The registered copy of a host specifier's shared module, if any. */
function registered(specifier: string): ModuleNamespace | undefined {
  const canonical = canonicalHostSpecifier(specifier);
  return canonical === undefined ? undefined : registry()[canonical];
}

/** Imports and registers the named shared modules (default: all), unless a copy is registered. */
export async function ensureHostModules(
  specifiers: readonly string[] = Object.keys(importers),
): Promise<Record<string, ModuleNamespace>> {
  const modules = registry();
  for (const specifier of specifiers) {
    const canonical = canonicalHostSpecifier(specifier);
    if (canonical === undefined || modules[canonical] !== undefined) continue;
    const namespace = await importers[canonical]?.();
    if (namespace !== undefined) modules[canonical] ??= namespace;
  }
  return modules;
}

/**
 * `require` that gives a host specifier's registered namespace (as Node's `require` of an ES
 * module would) and resolves the rest as before. A member's record lists the host specifiers
 * its files require, registered before it runs (see `requiredHostSpecifiers`).
 */
function hostAwareRequire(require: NodeJS.Require): NodeJS.Require {
  const wrapped = (id: string): unknown =>
    (typeof id === "string" ? registered(id) : undefined) ?? require(id);
  return Object.assign(wrapped, {
    resolve: require.resolve,
    cache: require.cache,
    extensions: require.extensions,
    main: require.main,
  }) as NodeJS.Require;
}
(globalThis as unknown as Record<symbol, unknown>)[HOST_REQUIRE_KEY] ??= hostAwareRequire;

/** A `require("…")` or `require('…')` with a literal specifier. */
const REQUIRE_CALL = /\brequire\s*\(\s*(["'`])([^"'`\n]+)\1\s*\)/g;

/** The host specifiers (as written) a source's `require` calls name. */
export function requiredHostSpecifiers(text: string): string[] {
  if (!text.includes("require")) return [];
  const specifiers = Array.from(text.matchAll(REQUIRE_CALL), (match) => match[2] as string);
  return [...new Set(specifiers.filter((specifier) => canonicalHostSpecifier(specifier) !== undefined))];
}

/** A registered shared module; call {@link ensureHostModules} first. */
export function getHostModule(specifier: string): ModuleNamespace {
  const namespace = registered(specifier);
  if (namespace === undefined) throw new Error(`Host module "${specifier}" is not registered.`);
  return namespace;
}

/** The names of `names` the registered copy of `specifier` lacks (a stand-in's gaps). */
export function missingHostExports(specifier: string, names: Iterable<string>): string[] {
  const namespace = getHostModule(specifier);
  return [...names].filter((name) => !Object.hasOwn(namespace, name));
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * ES module source that re-exports a registered shared module, by the names of the host's copy,
 * from the registry. A path with missing names ({@link missingExportsPath}) also exports each
 * as `undefined` and, when evaluated, reports them (`W_HOST_EXPORT_MISSING`).
 */
export function hostModuleSource(path: string): string {
  const { specifier, missing } = parseHostPath(path);
  const canonical = canonicalHostSpecifier(specifier) ?? specifier;
  const namespace = getHostModule(canonical);
  const names = Object.keys(namespace)
    .filter((name) => name !== "default" && IDENTIFIER.test(name))
    .sort();
  const absent = missing.filter((name) => !Object.hasOwn(namespace, name));
  // Each name through a local of its own: zod exports reserved words (`catch`, `enum`), which
  // an export may name but a declaration may not.
  const lines = [
    `const m = globalThis[globalThis.Symbol.for("tooldock.host-modules")][${JSON.stringify(canonical)}];`,
    names.length > 0 ? `const { ${names.map((name, index) => `${name}: e${index}`).join(", ")} } = m;` : "",
    names.length > 0 ? `export { ${names.map((name, index) => `e${index} as ${name}`).join(", ")} };` : "",
    "default" in namespace ? "export default m.default;" : "",
  ];
  if (absent.length > 0) {
    // One binding per name (each an identifier: see parseHostPath), called after it: a call of
    // one fails as "<name>$missing is not a function", not under a name the tool never wrote.
    lines.push(
      ...absent.map((name) => `const ${name}$missing = void 0;`),
      `export { ${absent.map((name) => `${name}$missing as ${JSON.stringify(name)}`).join(", ")} };`,
      `globalThis[globalThis.Symbol.for(${JSON.stringify(MISSING_EXPORT_REPORTER_KEY)})]?.report(${JSON.stringify(specifier)}, ${JSON.stringify(absent)});`,
    );
  }
  return lines.filter(Boolean).join("\n");
}

const sourceHashes = new Map<string, string>();

/** Hash of {@link hostModuleSource}, once per process: a registered copy never changes. */
export function hostModuleSourceHash(path: string): string {
  const { missing } = parseHostPath(path);
  const key = missing.length === 0 ? (canonicalHostSpecifier(path) ?? path) : path;
  return remembered(sourceHashes, key, () => hash(hostModuleSource(key)));
}
