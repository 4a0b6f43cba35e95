import { isAbsolute, relative } from "node:path";
import { formatDiagnostic } from "@tooldock/loader";
import type { Diagnostic } from "@tooldock/sdk";

/** A path relative to `cwd` when it lies inside it; otherwise unchanged. */
export function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const inside = relative(cwd, path);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}

/** Plain text of one diagnostic (for the JUnit report): the loader's `formatDiagnostic`, uncoloured. */
export function formatDiagnosticText(diagnostic: Diagnostic, cwd: string): string {
  return formatDiagnostic(diagnostic, { cwd });
}
