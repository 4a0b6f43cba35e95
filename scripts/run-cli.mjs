// Runs the built `tooldock` command from the repo root (`pnpm tooldock …`, `pnpm start`): the
// same file an installed `tooldock` runs, the `bin` of packages/cli/package.json (the bundle).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cliPackage = new URL("../packages/cli/", import.meta.url);
const { bin: bins } = JSON.parse(readFileSync(new URL("package.json", cliPackage), "utf8"));
const bin = fileURLToPath(new URL(bins.tooldock, cliPackage));
if (!existsSync(bin)) {
  process.stderr.write(
    `tooldock: the CLI is not built yet (${bin} is missing).\n` +
      "Run `npx -y pnpm@10.34.8 install` (it builds every package) or `pnpm build`, and try again.\n",
  );
  process.exit(2);
}
process.argv.splice(1, 1, bin);
await import(bin);
