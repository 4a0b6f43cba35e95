import { existsSync } from "node:fs";
import { join } from "node:path";
import { TooldockError } from "@tooldock/sdk";
import { cliPackageDirectory } from "../version.js";

/**
 * The folder `tooldock demo` loads its tools from: `dist/demo-tools/` inside the CLI package,
 * a copy of the repo's example tools that the build writes (packages/cli/scripts/copy-demo-tools.mjs),
 * so the published CLI depends on no private package. Its package.json lists the tools.
 *
 * @throws TooldockError when the folder is missing (the CLI was not built).
 */
export function demoToolsDirectory(): string {
  const directory = join(cliPackageDirectory(), "dist", "demo-tools");
  if (!existsSync(join(directory, "package.json"))) {
    throw new TooldockError(
      "E_DEMO_TOOLS_MISSING",
      `The demo's example tools are missing from ${directory}. ` +
        "Build the CLI (`npx -y pnpm@10.34.8 build` in the Tooldock repo) or reinstall @tooldock/cli.",
    );
  }
  return directory;
}
