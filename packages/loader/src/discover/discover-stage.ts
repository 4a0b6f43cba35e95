import type { Diagnostic } from "@tooldock/sdk";
import { createDiagnostic, describeError } from "../diagnostics.js";
import { type DiscoverToolModulesOptions, discoverToolModules } from "./discover-tool-modules.js";
import type { DiscoveredModule } from "./types.js";

/** Folder entries discovery scans between two turns of the event loop (see `discover`). */
const PACE_EVERY = 32;

/** The input of the discover stage: where to look. */
export type DiscoverInput = Pick<DiscoverToolModulesOptions, "paths" | "cwd" | "fileSystem" | "opencode">;

/**
 * The output of the discover stage: the modules as they are found, in discovery order, so the
 * later stages start on the first module while discovery goes on.
 */
export interface DiscoveryStream {
  /** Every module found so far, in order; complete once {@link DiscoveryStream.next} returned `undefined`. */
  readonly found: readonly DiscoveredModule[];
  /** The module after the `index` ones taken so far, once found; `undefined` when discovery ended without one. */
  next(index: number): Promise<DiscoveredModule | undefined>;
  /** Discovery's diagnostics, once it ended (de-duplicated, in the order found). */
  diagnostics(): Promise<readonly Diagnostic[]>;
}

/**
 * Stage 1, discover: paths → module entries (docs/contract.md §5; the rules are
 * `discoverToolModules`'). Starts at once and hands out each module as soon as it is found;
 * `onFound` hears of each one too (the build stage compiles ahead with it). Never rejects:
 * a path that cannot be scanned is a diagnostic.
 */
export function discover(
  input: DiscoverInput,
  onFound?: (module: DiscoveredModule) => void,
): DiscoveryStream {
  const found: DiscoveredModule[] = [];
  let ended = false;
  let waiting: Array<() => void> = [];
  const notify = () => {
    const wake = waiting;
    waiting = [];
    for (const resolve of wake) resolve();
  };
  let sincePause = 0;
  const done = discoverToolModules({
    ...input,
    onModule: (module, inSubfolder) => {
      found.push(module);
      // A first module found in a subfolder starts loading at once: discovery pauses before
      // its next entry (subfolders are settled without waiting, so it would scan up to
      // PACE_EVERY more, with the build stage's check of each, before the first one loads).
      // Not for a folder's own files: those are all found before its first module loads, so
      // the build stage's first group of them is complete when its first member is needed.
      if (found.length === 1 && inSubfolder) sincePause = PACE_EVERY - 1;
      onFound?.(module);
      notify();
    },
    // Scanning a folder only waits for promises that settle at once (a stat, a missing
    // package.json), so without a pause it would run to its end before the first module's
    // pack is read: every PACE_EVERY entries it lets the event loop turn once.
    pace: () => {
      sincePause += 1;
      if (sincePause < PACE_EVERY) return undefined;
      sincePause = 0;
      return new Promise<void>((resolve) => setImmediate(resolve));
    },
  });
  const result = done.then(
    (discovered): readonly Diagnostic[] => discovered.diagnostics,
    // discoverToolModules never rejects; should it, the load goes on with what was found.
    (error: unknown): readonly Diagnostic[] => [
      createDiagnostic("E_DISCOVERY", {
        message: `Discovery stopped inside Tooldock: ${describeError(error)}. The modules found before were loaded.`,
        path: "",
        hint: "Please report this as a Tooldock bug, with the tool paths that were given.",
      }),
    ],
  );
  const end = () => {
    ended = true;
    notify();
  };
  result.then(end, end);
  return {
    found,
    async next(index) {
      while (index >= found.length && !ended) {
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      return found[index];
    },
    diagnostics: () => result,
  };
}
