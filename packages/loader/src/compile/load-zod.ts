import { requireShared } from "@tooldock/runtime/internal";

/** The zod entry points tools import, served from the host's copy (see host-modules.ts). */
export type ZodSpecifier = "zod" | "zod/v4" | "zod/v4/core" | "zod/mini";

const RESOLVE_ESM: Record<ZodSpecifier, () => string> = {
  zod: () => import.meta.resolve("zod"),
  "zod/v4": () => import.meta.resolve("zod/v4"),
  "zod/v4/core": () => import.meta.resolve("zod/v4/core"),
  "zod/mini": () => import.meta.resolve("zod/mini"),
};

/**
 * Loads a zod entry point on first use, not at the loader's import: zod took ~55 ms of every
 * tool host's start. Synchronous, and the only way the loader loads zod (an `import()` under way
 * would fail a `require` of it). The bundles replace this module (`scripts/bundle-tool-host.mjs`,
 * the CLI's `scripts/lazy-zod.mjs`): keep the export's name and shape.
 */
export function loadZodModule(specifier: ZodSpecifier): Record<string, unknown> {
  return requireShared(specifier, import.meta.url, RESOLVE_ESM[specifier]) as Record<string, unknown>;
}
