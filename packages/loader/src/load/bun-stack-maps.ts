import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { orElse } from "../discover/expand-path.js";
import { remembered } from "../remembered.js";

type TraceMapping = typeof import("@jridgewell/trace-mapping");

let tracing: TraceMapping | undefined;
/** Map file → its decoded map, or `null` when it cannot be read. */
const maps = new Map<string, InstanceType<TraceMapping["TraceMap"]> | null>();

/**
 * On Bun, makes stack traces name the `.ts` line of a compiled tool, as Node does with source
 * maps on: Bun reads no source map of the JavaScript it imports (`process.setSourceMapsEnabled`
 * does nothing there), so a tool's error named a line of its pack in the cache, and the
 * session's `error.location` was missing. Frames in a pack (`<cacheDir>/bundles/*.mjs`) are
 * read through the pack's map (`<cacheDir>/maps/<pack>.map`); every other frame is left as it
 * is. Installed once, as `Error.prepareStackTrace` (Bun calls it as V8 does), around the one
 * set before it, if any. Does nothing on other runtimes.
 */
export async function mapPackStacksOnBun(): Promise<void> {
  if (process.versions.bun === undefined || tracing !== undefined) return;
  tracing = await import("@jridgewell/trace-mapping");
  // Bun has a native one by default, which refuses anything but a real Error (a classic
  // `Error.captureStackTrace(this)` in a constructor): that one is not handed the frames.
  const set = Error.prepareStackTrace;
  const before =
    set === undefined || Function.prototype.toString.call(set).includes("[native code]") ? undefined : set;
  Error.prepareStackTrace = (error, sites) => {
    const mapped = sites.map(mappedSite);
    if (before !== undefined) return before(error, mapped);
    // `Name: message`, as V8 starts a stack; never throws for an odd error.
    const header = orElse(() => String(error), "Error");
    return [header, ...mapped.map((site) => `    at ${site}`)].join("\n");
  };
}

/** `site`, or a site naming the `.ts` position when it is in a pack whose map knows it. */
function mappedSite(site: NodeJS.CallSite): NodeJS.CallSite {
  const file = site.getFileName();
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (file == null || line == null || column == null || !file.endsWith(".mjs")) return site;
  if (basename(dirname(file)) !== "bundles") return site;
  const map = mapOf(join(dirname(dirname(file)), "maps", `${basename(file)}.map`));
  const original = map === null ? undefined : tracing?.originalPositionFor(map, { line, column: column - 1 });
  if (original?.source == null || original.line == null || original.column == null) return site;
  const { source, line: originalLine, column: originalColumn } = original;
  const text = site
    .toString()
    .replace(`${file}:${line}:${column}`, `${source}:${originalLine}:${originalColumn + 1}`);
  const own: Record<string, () => unknown> = {
    getFileName: () => source,
    getLineNumber: () => originalLine,
    getColumnNumber: () => originalColumn + 1,
    toString: () => text,
  };
  // A proxy, not a copy: a runtime's frame methods read its own slots, so each is bound to it.
  return new Proxy(site, {
    get(target, key) {
      if (typeof key === "string" && Object.hasOwn(own, key)) return own[key];
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function mapOf(path: string): InstanceType<TraceMapping["TraceMap"]> | null {
  return remembered(maps, path, () =>
    orElse(() => new (tracing as TraceMapping).TraceMap(readFileSync(path, "utf8"), path), null),
  );
}
