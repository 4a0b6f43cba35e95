import type { Diagnostic } from "@tooldock/sdk";
import { createWarning } from "../../diagnostics.js";
import { catchingEvaluation, type PreparedModule } from "../prepared-module.js";

/** `Symbol.for` key of the process-wide reporter the stand-in modules call. */
export const MISSING_EXPORT_REPORTER_KEY = "tooldock.host-export-missing";

/** One name a tool imports from a stand-in package that the stand-in does not have. */
export interface MissingImport {
  /** The specifier as the tool wrote it (`@oh-my-pi/pi-tui`). */
  specifier: string;
  name: string;
}

interface Reporter {
  /** Where reports go while a module is evaluated; set by {@link reportingMissingExports}. */
  collect: ((specifier: string, name: string) => void) | undefined;
  report(specifier: string, names: readonly string[]): void;
}

function reporter(): Reporter {
  const holder = globalThis as unknown as Record<symbol, Reporter | undefined>;
  const key = Symbol.for(MISSING_EXPORT_REPORTER_KEY);
  holder[key] ??= {
    collect: undefined,
    report(specifier, names) {
      for (const name of names) this.collect?.(specifier, name);
    },
  };
  return holder[key];
}

/** Reports names a module lacks from a stand-in, as the stand-in modules do when evaluated. */
export function reportMissingExports(specifier: string, names: readonly string[]): void {
  reporter().report(specifier, names);
}

/**
 * Wraps a compiled module so that each name its stand-in imports lack, reported as it is
 * evaluated, is one `W_HOST_EXPORT_MISSING`; a module evaluated before (same namespace) repeats them.
 */
export function reportingMissingExports(
  prepared: PreparedModule,
  entry: string,
  onWarning: (diagnostic: Diagnostic) => void,
): PreparedModule {
  const evaluate = (): unknown => {
    const collected = new Map<string, MissingImport>(); // each once, in the order reported
    const holder = reporter();
    const collect = (specifier: string, name: string) =>
      collected.set(`${specifier}\u0000${name}`, { specifier, name });
    const previous = holder.collect;
    holder.collect = collect;
    const finish = (namespace: unknown) => {
      if (holder.collect === collect) holder.collect = previous;
      const found = [...collected.values()];
      let names = found;
      if (typeof namespace === "object" && namespace !== null) {
        if (found.length > 0) reported.set(namespace, found);
        else names = reported.get(namespace) ?? found;
      }
      for (const name of names) onWarning(missingExportWarning(entry, name));
    };
    const done = (namespace: unknown) => {
      finish(namespace);
      return namespace;
    };
    const evaluation = catchingEvaluation(prepared, (error) => {
      finish(undefined);
      throw error;
    }).evaluate();
    return evaluation instanceof Promise ? evaluation.then(done) : done(evaluation);
  };
  return { evaluate };
}

/** What each evaluated module namespace reported, for modules Node does not evaluate twice. */
const reported = new WeakMap<object, MissingImport[]>();

/** The `W_HOST_EXPORT_MISSING` warning of one missing import. */
function missingExportWarning(path: string, missing: MissingImport): Diagnostic {
  return createWarning("W_HOST_EXPORT_MISSING", {
    message: `${path} imports "${missing.name}" from "${missing.specifier}", which Tooldock's stand-in for that package does not provide; it is undefined here.`,
    path,
    hint: `Tooldock has no copy of "${missing.specifier}" (see the loader README, "Modules written for other hosts", for what it provides). Guard the use of "${missing.name}" (it is undefined under Tooldock), or take an equivalent from a package the tool installs itself.`,
  });
}
