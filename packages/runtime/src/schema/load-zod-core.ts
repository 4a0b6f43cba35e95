import type * as ZodCore from "zod/v4/core";
import { requireShared } from "../util/require-shared.js";

let core: typeof ZodCore | undefined;

/**
 * Loads zod's core when the first zod schema needs it, instead of at every import of the
 * runtime: it took ~55 ms of every tool host's start, and a process whose tools all use
 * TypeBox never needs it. The tool host's bundle replaces this module with one that requires
 * its own bundled copy (`packages/loader/scripts/bundle-tool-host.mjs`): keep the export's
 * name and shape.
 */
export function loadZodCore(): typeof ZodCore {
  core ??= requireShared("zod/v4/core", import.meta.url, () =>
    import.meta.resolve("zod/v4/core"),
  ) as typeof ZodCore;
  return core;
}
