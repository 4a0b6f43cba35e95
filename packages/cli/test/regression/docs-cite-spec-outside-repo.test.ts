// Attack (on a newcomer's trust): the CLI's help and the docs cited "SPEC §6" and
// `../shared/SPEC.md`, a file that is not in the repository, so every such reference was a
// dead end. They now cite docs/contract.md, the contract written in the repo from the code.
// Checked here: every package's sources and tools, docs/, the package READMEs and the root
// documents.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const OUTSIDE_SPEC = /\bSPEC\s*§|shared\/SPEC|SPEC\.md/;

const sourcesOf = (folder: string) =>
  existsSync(folder)
    ? readdirSync(folder, { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && /\.(ts|mts|mjs)$/.test(entry.name))
        .map((entry) => join(entry.parentPath, entry.name))
    : [];
const packages = readdirSync(join(repoRoot, "packages"));
const cliSources = sourcesOf(join(repoRoot, "packages/cli/src"));
const documents = [
  ...readdirSync(join(repoRoot, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(repoRoot, "docs", name)),
  ...["README.md", "CONTRIBUTING.md", "SECURITY.md"].map((name) => join(repoRoot, name)),
  ...packages.map((name) => join(repoRoot, "packages", name, "README.md")),
  ...packages.flatMap((name) =>
    ["src", "tools", "scripts"].flatMap((sub) => sourcesOf(join(repoRoot, "packages", name, sub))),
  ),
  ...sourcesOf(join(repoRoot, "scripts")),
].filter((path) => existsSync(path) && !path.endsWith("docs-cite-spec-outside-repo.test.ts"));

describe("help and docs cite docs/contract.md, not a SPEC outside the repo", () => {
  it("checks the CLI sources, the docs and the READMEs", () => {
    expect(cliSources.length).toBeGreaterThan(50);
    expect(documents.some((path) => path.endsWith("contract.md"))).toBe(true);
  });

  it("no source, tool, script or document cites a SPEC outside the repository", () => {
    const offending = documents.flatMap((path) =>
      readFileSync(path, "utf8")
        .split("\n")
        .flatMap((text, index) =>
          OUTSIDE_SPEC.test(text) ? [`${relative(repoRoot, path)}:${index + 1}: ${text}`] : [],
        ),
    );
    expect(offending).toEqual([]);
  });

  it("the contract the docs cite is in the repository", () => {
    expect(existsSync(join(repoRoot, "docs/contract.md"))).toBe(true);
  });
});
