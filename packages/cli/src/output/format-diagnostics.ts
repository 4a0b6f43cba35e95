import { formatDiagnostic } from "@tooldock/loader";
import type { Diagnostic } from "@tooldock/sdk";
import type { Colors } from "./colors.js";

/**
 * Every diagnostic, errors first, separated by blank lines; each as the loader's
 * `formatDiagnostic` writes it (the one implementation hosts use too), coloured when `colors` is.
 */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], colors: Colors, cwd: string): string[] {
  const ordered = [...diagnostics].sort(
    (a, b) => Number(a.severity === "warning") - Number(b.severity === "warning"),
  );
  return ordered.flatMap((diagnostic, index) => [
    ...(index > 0 ? [""] : []),
    ...formatDiagnostic(diagnostic, { color: colors.isColorSupported, cwd }).split("\n"),
  ]);
}
