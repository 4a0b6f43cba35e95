// Runs the built `tooldock` command from the repo root (`pnpm tooldock …`, `pnpm start`).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../packages/cli/dist/bin.js", import.meta.url));
if (!existsSync(bin)) {
  process.stderr.write(
    "tooldock: the CLI is not built yet (packages/cli/dist/bin.js is missing).\n" +
      "Run `npx -y pnpm@10.34.8 install` (it builds every package) and try again.\n",
  );
  process.exit(2);
}
process.argv.splice(1, 1, bin);
await import(bin);
