import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSnippets } from "./readme-snippets.mjs";

describe("README snippets", () => {
  it("every snippet in the repository's Markdown is identical to the compiled code it names", async () => {
    const results = await checkSnippets();
    expect(results.length).toBeGreaterThan(0);
    const broken = results.filter((result) => result.problem).map((r) => `${r.where}: ${r.problem}`);
    expect(broken, "run `pnpm docs:snippets` to copy the compiled code into the READMEs").toEqual([]);
  });

  it("finds a stale block, a missing region and a missing file, and --write fixes the stale one", async () => {
    const root = await mkdtemp(join(tmpdir(), "tooldock-snippets-"));
    try {
      await mkdir(join(root, "src"));
      await writeFile(
        join(root, "src/a.ts"),
        "// header\nimport x from 'x';\nfunction f() {\n  // #region body\n  x();\n    y();\n  // #endregion body\n}\n",
      );
      const readme = [
        "<!-- snippet: src/a.ts#body -->",
        "```ts",
        "x(); // stale",
        "```",
        "<!-- snippet: src/a.ts -->",
        "```ts",
        "import x from 'x';",
        "```",
        "<!-- snippet: src/a.ts#nope -->",
        "```ts",
        "```",
        "<!-- snippet: src/gone.ts -->",
        "```ts",
        "```",
        "",
      ].join("\n");
      await writeFile(join(root, "README.md"), readme);
      const problems = (await checkSnippets({ root })).map((r) => r.problem);
      expect(problems).toEqual([
        "differs from src/a.ts#body",
        "differs from src/a.ts",
        'src/a.ts has no "// #region nope" … "// #endregion nope" pair',
        "the snippet names src/gone.ts, which cannot be read",
      ]);
      await checkSnippets({ root, write: true });
      const written = await readFile(join(root, "README.md"), "utf8");
      expect(written).toContain("```ts\nx();\n  y();\n```");
      expect(written).toContain("```ts\nimport x from 'x';\nfunction f() {\n");
      expect((await checkSnippets({ root })).filter((r) => r.problem)).toHaveLength(2);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
