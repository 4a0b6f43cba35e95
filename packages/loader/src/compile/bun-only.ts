/** What Node offers instead of each of Bun's own modules. */
const BUN_REPLACEMENTS: Readonly<Record<string, string>> = {
  "bun:sqlite": "node:sqlite (Node 22.5+) or better-sqlite3",
  "bun:test": "vitest or node:test",
  bun: "node:child_process and node:fs/promises",
};

/**
 * For a specifier of Bun's own modules (`bun`, `bun:sqlite`, …), what it is and what to use
 * instead, to follow `Could not resolve "…"`; `""` for any other specifier.
 */
export function bunOnlyNote(specifier: string): string {
  if (specifier !== "bun" && !specifier.startsWith("bun:")) return "";
  const instead = BUN_REPLACEMENTS[specifier];
  return `: "${specifier}" is a module of the Bun runtime, which Node does not have (Tooldock runs tools on Node)${instead === undefined ? "" : `; use ${instead} instead`}`;
}
