import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
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
        "durableAction",
        "errorResult",
        "textResult",
      ]
    `);
  });

  it("resolves through the exports map from a plain Node ESM script", async () => {
    // packages/runtime depends on @tooldock/sdk, so the package name resolves from there.
    const runtimeDir = fileURLToPath(new URL("../../runtime/", import.meta.url));
    const script =
      'import { defineTool, textResult, TooldockError } from "@tooldock/sdk";' +
      'const tool = defineTool({ name: "t", label: "T", description: "d", parameters: {}, execute: async () => textResult("ok") });' +
      'console.log(JSON.stringify([tool.name, TooldockError.isInstance(new TooldockError("E_IMPORT", "x"))]));';
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      cwd: runtimeDir,
    });
    expect(JSON.parse(stdout)).toEqual(["t", true]);
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
