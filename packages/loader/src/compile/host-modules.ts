import { hash } from "./hash.js";

/**
 * The host's single copies of the modules tools share with it. Compiled tools never bundle
 * or resolve these themselves: both compilers route the specifiers below to the objects
 * registered on `globalThis[Symbol.for("tooldock.host-modules")]`, so a `TSchema` or a
 * `TooldockError` made by a tool is the host's own.
 */
export const HOST_MODULES_KEY: unique symbol = Symbol.for("tooldock.host-modules") as never;

type ModuleNamespace = Record<string, unknown>;

const importers: Record<string, () => Promise<ModuleNamespace>> = {
  "@tooldock/sdk": () => import("@tooldock/sdk"),
  "@sinclair/typebox": () => import("@sinclair/typebox"),
  "@sinclair/typebox/compiler": () => import("@sinclair/typebox/compiler"),
  "@sinclair/typebox/errors": () => import("@sinclair/typebox/errors"),
  "@sinclair/typebox/system": () => import("@sinclair/typebox/system"),
  "@sinclair/typebox/type": () => import("@sinclair/typebox/type"),
  "@sinclair/typebox/value": () => import("@sinclair/typebox/value"),
  zod: () => import("zod"),
  "zod/v4": () => import("zod/v4"),
  "zod/v4/core": () => import("zod/v4/core"),
  "zod/mini": () => import("zod/mini"),
};

/**
 * Packages of other hosts whose tool modules Tooldock loads unchanged. Their imports are
 * usually type-only (erased); a value import resolves to the host's `@tooldock/sdk`.
 */
export const COMPATIBILITY_ALIASES: Readonly<Record<string, string>> = {
  "@oh-my-pi/pi-coding-agent": "@tooldock/sdk",
  "@mariozechner/pi-coding-agent": "@tooldock/sdk",
  "@f5-sales-demo/xcsh": "@tooldock/sdk",
};

/** Every specifier served from the host: the shared modules and the compatibility aliases. */
export const HOST_SPECIFIERS: readonly string[] = [
  ...Object.keys(importers),
  ...Object.keys(COMPATIBILITY_ALIASES),
];

/** The shared module a host specifier stands for (`@oh-my-pi/pi-coding-agent` → `@tooldock/sdk`). */
export function canonicalHostSpecifier(specifier: string): string | undefined {
  if (specifier in importers) return specifier;
  return COMPATIBILITY_ALIASES[specifier];
}

function registry(): Record<string, ModuleNamespace> {
  const holder = globalThis as unknown as Record<symbol, Record<string, ModuleNamespace> | undefined>;
  holder[HOST_MODULES_KEY] ??= Object.create(null) as Record<string, ModuleNamespace>;
  return holder[HOST_MODULES_KEY];
}

/**
 * Registers a shared module the caller already imported, unless a copy is registered (the
 * first copy wins), and returns the registered copy. Lets the `pi` API and compiled tools
 * see the very same objects even when two copies of the loader run in one process.
 */
export function registerHostModule(specifier: string, namespace: ModuleNamespace): ModuleNamespace {
  const modules = registry();
  const canonical = canonicalHostSpecifier(specifier) ?? specifier;
  modules[canonical] ??= namespace;
  return modules[canonical];
}

/**
 * Imports the named shared modules (all of them by default) and registers them. The first
 * copy registered in a process wins, so every loader in it hands tools the same objects.
 */
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

/** A registered shared module; call {@link ensureHostModules} first. */
export function getHostModule(specifier: string): ModuleNamespace {
  const canonical = canonicalHostSpecifier(specifier);
  const namespace = canonical === undefined ? undefined : registry()[canonical];
  if (namespace === undefined) throw new Error(`Host module "${specifier}" is not registered.`);
  return namespace;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * ES module source that re-exports a registered shared module by name, read from the global
 * registry when the tool is evaluated. The export list is taken from the host's copy.
 */
export function hostModuleSource(specifier: string): string {
  const canonical = canonicalHostSpecifier(specifier) ?? specifier;
  const namespace = getHostModule(canonical);
  const names = Object.keys(namespace)
    .filter((name) => name !== "default" && IDENTIFIER.test(name))
    .sort();
  const lines = [
    `const m = globalThis[globalThis.Symbol.for("tooldock.host-modules")][${JSON.stringify(canonical)}];`,
    names.length > 0 ? `export const { ${names.join(", ")} } = m;` : "",
    "default" in namespace ? "export default m.default;" : "",
  ];
  return lines.filter(Boolean).join("\n");
}

const sourceHashes = new Map<string, string>();

/**
 * Hash of {@link hostModuleSource}, computed once per process: a registered copy never
 * changes (the first one wins), so neither does the source served for it.
 */
export function hostModuleSourceHash(specifier: string): string {
  const canonical = canonicalHostSpecifier(specifier) ?? specifier;
  let sourceHash = sourceHashes.get(canonical);
  if (sourceHash === undefined) {
    sourceHash = hash(hostModuleSource(canonical));
    sourceHashes.set(canonical, sourceHash);
  }
  return sourceHash;
}
