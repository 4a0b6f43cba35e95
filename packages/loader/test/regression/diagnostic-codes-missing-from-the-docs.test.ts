// A host author who got `W_BUN_API`, `W_EXTENSION_FEATURE`, `W_MANIFEST_FIELD`,
// `W_UNKNOWN_FORMAT` or `E_TOOL_HOST` from a load looked it up in the loader README's
// Diagnostics table and did not find it (the rows stopped at the codes of an earlier
// version), and `W_BUN_API` and `W_HOST_EXPORT_MISSING` were missing from the contract's list
// of every code (docs/contract.md §8), which calls itself exact. Every warning code the loader
// and the runtime write, and every error code a load gives, must now have its row in both.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DIAGNOSTIC_ERROR_CODES } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../../", import.meta.url));

/** The `W_…` codes written as string literals in a package's sources (not its tests). */
function warningCodes(folder: string): string[] {
  const codes = new Set<string>();
  for (const name of readdirSync(folder, { recursive: true, encoding: "utf8" })) {
    if (!name.endsWith(".ts") || /\.test(-d)?\.ts$/.test(name)) continue;
    for (const match of readFileSync(join(folder, name), "utf8").matchAll(/"(W_[A-Z][A-Z0-9_]+)"/g))
      codes.add(match[1] as string);
  }
  return [...codes].sort();
}

/** The codes in the first column of the tables of a Markdown section. */
function tableCodes(file: string, heading: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no "${heading}" section`);
  const end = text.indexOf("\n## ", start + heading.length + 2);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([EW]_[A-Z0-9_]+)`/gm)].map((match) => match[1] as string);
}

const loadCodes = [
  ...DIAGNOSTIC_ERROR_CODES.filter((code) => code !== "E_NOTHING_TO_VALIDATE"),
  ...warningCodes(join(root, "packages/loader/src")),
  ...warningCodes(join(root, "packages/runtime/src")),
];

describe("the diagnostic codes in the docs", () => {
  it("the loader README's Diagnostics table has every code a load gives", () => {
    const documented = new Set(tableCodes("packages/loader/README.md", "## Diagnostics"));
    expect(loadCodes.filter((code) => !documented.has(code))).toEqual([]);
  });

  it("the contract's §8 has every code a load gives", () => {
    const documented = new Set(tableCodes("docs/contract.md", "## 8. Diagnostics and error codes"));
    expect(loadCodes.filter((code) => !documented.has(code))).toEqual([]);
  });
});
