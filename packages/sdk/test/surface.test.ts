import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));

async function listJs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return listJs(path);
      return Promise.resolve(entry.name.endsWith(".js") ? [path] : []);
    }),
  );
  return nested.flat();
}

describe("@tooldock/sdk public surface (built)", () => {
  it("exports exactly the documented runtime values", async () => {
    // Import the built package the way a plain Node ESM script would.
    const sdk = await import(/* @vite-ignore */ join(dist, "index.js"));
    expect(Object.keys(sdk).sort()).toMatchInlineSnapshot(`
      [
        "DIAGNOSTIC_ERROR_CODES",
        "TooldockError",
        "defineTool",
        "defineToolFactory",
        "errorResult",
        "textResult",
      ]
    `);
  });

  it("imports no compiler, no loader and no Node-only module", async () => {
    const files = await listJs(dist);
    expect(files.length).toBeGreaterThan(0);
    const specifiers = new Set<string>();
    for (const file of files) {
      const text = await readFile(file, "utf8");
      for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)) {
        if (match[1]) specifiers.add(match[1]);
      }
    }
    const external = [...specifiers].filter((specifier) => !specifier.startsWith("."));
    expect(external).toEqual([]);
  });
});
