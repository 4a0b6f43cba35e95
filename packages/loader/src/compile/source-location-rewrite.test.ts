import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { rewriteSourceLocation } from "./source-location-rewrite.js";

const file = "/work/tools/report/index.ts";

describe("rewriteSourceLocation", () => {
  it("makes import.meta's location fields the source file's, on the same lines", () => {
    const source = "const a = import.meta.url;\nconst b = [import.meta.dirname, import.meta.filename];\n";
    expect(rewriteSourceLocation(source, file)).toBe(
      `const a = ${JSON.stringify(pathToFileURL(file).href)};\n` +
        `const b = ["/work/tools/report", "${file}"];\n`,
    );
  });

  it("declares __dirname and __filename where a file uses them without declaring them", () => {
    const rewritten = rewriteSourceLocation("console.log(__dirname);\n", file);
    expect(rewritten).toBe(
      `var __dirname = "/work/tools/report", __filename = "${file}"; console.log(__dirname);\n`,
    );
    expect(rewriteSourceLocation("#!/usr/bin/env node\nuse(__filename);\n", file)).toBe(
      `#!/usr/bin/env node\nvar __dirname = "/work/tools/report", __filename = "${file}"; use(__filename);\n`,
    );
  });

  it("leaves a file that declares its own __dirname, or names no location, as it is", () => {
    const declares = 'import { fileURLToPath } from "node:url";\nconst __dirname = fileURLToPath(".");\n';
    expect(rewriteSourceLocation(declares, file)).toBe(declares);
    const plain = "export const meta = { url: 'import.meta' };\nexport const x = 1;\n";
    expect(rewriteSourceLocation(plain, file)).toBe(plain);
  });
});
