// Code blocks in the READMEs that are copies of compiled files, kept identical.
//
// In a Markdown file, a block preceded by a marker comment is a snippet:
//
//   <!-- snippet: packages/runtime/src/steering/provider-loops.test-d.ts#anthropic -->
//   ```ts
//   ...
//   ```
//
// The path is relative to the repository root. `#name` picks the lines between
// `// #region name` and `// #endregion name` in that file, dedented; without `#name` the
// snippet is the whole file after its leading `//` comment lines. The type check compiles
// those files, so a snippet cannot rot: `readme-snippets.test.ts` fails when a block differs,
// and `node scripts/readme-snippets.mjs --write` (`pnpm docs:snippets`) rewrites the blocks.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const MARKER = /<!-- snippet: ([^\s#]+)(?:#([\w-]+))? -->\n(```\w*\n)([\s\S]*?)```/g;

/** The repository root (this file is in `scripts/`). */
export const repositoryRoot = fileURLToPath(new URL("..", import.meta.url));

/** Every Markdown file the snippets may live in: READMEs and docs, outside node_modules and dist. */
export async function markdownFiles(root = repositoryRoot) {
  const found = [];
  const walk = async (folder) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  await walk(root);
  return found.sort();
}

function dedent(lines) {
  const indents = lines.filter((line) => line.trim() !== "").map((line) => /^ */.exec(line)[0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(cut));
}

/** The text a marker names, or an error message saying what is wrong with the marker. */
export async function snippetSource(root, path, region) {
  let source;
  try {
    source = await readFile(join(root, path), "utf8");
  } catch {
    return { error: `the snippet names ${path}, which cannot be read` };
  }
  const lines = source.split("\n");
  if (!region) {
    let start = 0;
    while (start < lines.length && lines[start].startsWith("//")) start++;
    return { text: lines.slice(start).join("\n").replace(/\n*$/, "\n") };
  }
  const begin = lines.findIndex((line) => line.trim() === `// #region ${region}`);
  const end = lines.findIndex((line, index) => index > begin && line.trim() === `// #endregion ${region}`);
  if (begin < 0 || end < 0)
    return { error: `${path} has no "// #region ${region}" … "// #endregion ${region}" pair` };
  return { text: `${dedent(lines.slice(begin + 1, end)).join("\n")}\n` };
}

/**
 * Checks (and with `write`, rewrites) every snippet of every Markdown file under `root`.
 * Returns one entry per snippet: where it is, what it names, and what is wrong, if anything.
 */
export async function checkSnippets({ root = repositoryRoot, write = false } = {}) {
  const results = [];
  for (const file of await markdownFiles(root)) {
    const markdown = await readFile(file, "utf8");
    let changed = markdown;
    for (const match of markdown.matchAll(MARKER)) {
      const [whole, path, region, fence, body] = match;
      const where = `${relative(root, file)}:${markdown.slice(0, match.index).split("\n").length}`;
      const source = await snippetSource(root, path, region);
      const name = region ? `${path}#${region}` : path;
      if (source.error) {
        results.push({ where, name, problem: source.error });
        continue;
      }
      const same = body === source.text;
      results.push({ where, name, problem: same ? undefined : `differs from ${name}` });
      if (!same && write)
        changed = changed.replace(whole, whole.replace(`${fence}${body}`, `${fence}${source.text}`));
    }
    if (write && changed !== markdown) await writeFile(file, changed);
  }
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const write = process.argv.includes("--write");
  const results = await checkSnippets({ write });
  const broken = results.filter((result) => result.problem);
  for (const result of broken)
    console.log(`${result.where}: ${result.problem}${write ? " (rewritten)" : ""}`);
  console.log(
    `${results.length} ${results.length === 1 ? "snippet" : "snippets"}, ${broken.length} ${write ? "rewritten or broken" : "out of date"}.`,
  );
  if (!write && broken.length > 0) process.exitCode = 1;
}
