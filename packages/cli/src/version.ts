import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "@tooldock/cli";

/**
 * The folder of `@tooldock/cli`: the nearest folder above this module whose package.json is
 * the CLI's own. The same from `src/`, from tsc's `dist/` and from the bundled executable in
 * `dist/bundle/`.
 */
export function cliPackageDirectory(): string {
  return fileURLToPath(findCliPackage().directory);
}

/** The version of `@tooldock/cli`, from its package.json (see {@link cliPackageDirectory}). */
export function cliVersion(): string {
  return findCliPackage().version;
}

function findCliPackage(): { directory: URL; version: string } {
  let directory = new URL(".", import.meta.url);
  for (;;) {
    const manifest = readManifest(new URL("package.json", directory));
    if (manifest?.name === PACKAGE_NAME && typeof manifest.version === "string") {
      return { directory, version: manifest.version };
    }
    const parent = new URL("..", directory);
    if (parent.href === directory.href) {
      throw new Error(`The package.json of ${PACKAGE_NAME} was not found above ${import.meta.url}.`);
    }
    directory = parent;
  }
}

function readManifest(url: URL): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(url, "utf8")) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}
