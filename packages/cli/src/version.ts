import { readFileSync } from "node:fs";

const PACKAGE_NAME = "@tooldock/cli";

/**
 * The version of `@tooldock/cli`, from the nearest package.json above this module that is the
 * CLI's own: the same from `src/`, from tsc's `dist/` and from the bundled executable in
 * `dist/bundle/`.
 */
export function cliVersion(): string {
  let directory = new URL(".", import.meta.url);
  for (;;) {
    const manifest = readManifest(new URL("package.json", directory));
    if (manifest?.name === PACKAGE_NAME && typeof manifest.version === "string") return manifest.version;
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
