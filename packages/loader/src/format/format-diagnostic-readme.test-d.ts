// The loader README's "Printing diagnostics" example, compiled by the type check so it cannot
// rot. The README shows the region below as it is (`scripts/readme-snippets.test.ts` compares
// them; `pnpm docs:snippets` copies them).
import { formatDiagnostic, loadCustomTools } from "../index.js";

export async function printDiagnostics(): Promise<void> {
  // #region print
  const { diagnostics } = await loadCustomTools({ paths: ["./tools"] });
  const color = process.stderr.isTTY && !process.env.NO_COLOR;
  for (const diagnostic of diagnostics) {
    process.stderr.write(`${formatDiagnostic(diagnostic, { color, cwd: process.cwd() })}\n\n`);
  }
  // #endregion print
}
