// Resolves the packages a host would import, from the folder of the package that depends on
// them (pnpm gives each package its own node_modules; bench/ has none). ESM entry points are
// picked from `exports` with the "import"/"default" conditions, as Node does for `import`.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** @param {unknown} target @returns {string | undefined} */
function pickCondition(target) {
  if (typeof target === "string") return target;
  if (Array.isArray(target)) return target.map(pickCondition).find(Boolean);
  if (target && typeof target === "object") {
    for (const [condition, value] of Object.entries(target)) {
      if (condition === "import" || condition === "node" || condition === "default") {
        const picked = pickCondition(value);
        if (picked) return picked;
      }
    }
  }
  return undefined;
}

/**
 * Absolute path of the ESM entry of `name` as seen from `packages/<from>`.
 * @param {string} name package name, e.g. "@tooldock/loader"
 * @param {string} from workspace package folder the lookup starts in, e.g. "examples"
 */
export function resolvePackage(name, from = "examples") {
  const link = join(repoRoot, "packages", from, "node_modules", name);
  if (!existsSync(link)) throw new Error(`${name} is not installed for packages/${from}`);
  const packageDir = realpathSync(link);
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  const exportsField = manifest.exports;
  const root =
    exportsField && typeof exportsField === "object" && !Array.isArray(exportsField) && "." in exportsField
      ? exportsField["."]
      : exportsField;
  const entry = pickCondition(root) ?? manifest.module ?? manifest.main ?? "index.js";
  return join(packageDir, entry);
}

/** `file://` URL of {@link resolvePackage}, for `import()`. */
export function packageUrl(name, from = "examples") {
  return pathToFileURL(resolvePackage(name, from)).href;
}

/** Folder of a workspace package's built output. */
export function distDir(packageFolder) {
  return join(repoRoot, "packages", packageFolder, "dist");
}

/**
 * Whether the built `@tooldock/runtime` exports the functions named (`Session`, or a static
 * such as `Session.open`), or why not (not built yet, not importable).
 * @param {string[]} names
 * @returns {Promise<{ available: boolean; reason: string }>}
 */
export async function builtRuntime(names) {
  try {
    const runtime = await import(packageUrl("@tooldock/runtime"));
    const missing = names.filter(
      (name) => typeof name.split(".").reduce((value, key) => value?.[key], runtime) !== "function",
    );
    return missing.length === 0
      ? { available: true, reason: "" }
      : { available: false, reason: `not built yet: packages/runtime/dist lacks ${missing.join(", ")}` };
  } catch (error) {
    return { available: false, reason: `cannot import the built runtime: ${String(error)}` };
  }
}
