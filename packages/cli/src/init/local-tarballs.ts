import { readdir } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import { UsageError } from "../args/usage-error.js";

/**
 * The `file:` dependency specs of `tooldock init --from <folder>`: for each package, the
 * tarball `npm pack` / `pnpm release:pack` names `tooldock-<name>-<version>.tgz` in `folder`,
 * written relative to the scaffold (`file:../artifacts/tooldock-sdk-0.1.0.tgz`) so the two can
 * move together. When a folder holds several versions of a package, the one at `version` (the
 * CLI's) is taken.
 *
 * @throws UsageError when the folder cannot be read, or a package has no tarball there (or
 * several, none at `version`).
 */
export async function localTarballSpecs(options: {
  /** The folder of tarballs, as given (for messages). */
  from: string;
  cwd: string;
  /** The scaffold's folder (absolute): specs are relative to it. */
  directory: string;
  packages: readonly string[];
  version: string;
}): Promise<Record<string, string>> {
  const folder = resolve(options.cwd, options.from);
  const entries = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `cannot read the tarball folder ${options.from} (--from): ${error.code ?? error.message}. ` +
        "Give the folder `pnpm release:pack` wrote (artifacts/ in the Tooldock repo).",
      "init",
    );
  });
  const specs: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of options.packages) {
    const prefix = `${name.replace(/^@/, "").replace("/", "-")}-`;
    const candidates = entries.filter(
      (entry) => entry.startsWith(prefix) && entry.endsWith(".tgz") && /^\d/.test(entry.slice(prefix.length)),
    );
    const exact = `${prefix}${options.version}.tgz`;
    const chosen = candidates.includes(exact) ? exact : candidates.length === 1 ? candidates[0] : undefined;
    if (chosen === undefined) {
      missing.push(
        candidates.length === 0
          ? `${name} (no ${prefix}<version>.tgz)`
          : `${name} (${candidates.join(", ")}: none is ${options.version})`,
      );
      continue;
    }
    const path = relative(options.directory, resolve(folder, chosen)).split(sep).join("/");
    specs[name] = `file:${path}`;
  }
  if (missing.length > 0) {
    throw new UsageError(
      `${options.from} (--from) lacks the tarball of ${missing.join("; ")}. ` +
        "Run `pnpm release:pack` in the Tooldock repo (or `npm pack` each package) into that folder.",
      "init",
    );
  }
  return specs;
}
