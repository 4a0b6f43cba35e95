import { readFileSync } from "node:fs";

/** The version of `@tooldock/cli`, read from its package.json (works from `src/` and `dist/`). */
export function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return manifest.version;
}
