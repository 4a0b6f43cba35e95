// Attack: docs, help texts and the scaffold told users to run `npx tooldock …`. Where the CLI
// is not installed in the project, npx asks the registry for the unscoped package `tooldock`,
// which is not ours: whoever registers that name runs code on our users' machines. Every
// command line we print or document now names the scoped package, `npx @tooldock/cli …`.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scaffoldNames } from "../../src/init/scaffold-names.js";
import { packageJsonTemplate, readmeTemplate } from "../../src/init/scaffold-templates.js";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** `npx tooldock`, `npx -y tooldock`, and an MCP config's `"args": ["tooldock", …]` / `["-y", "tooldock", …]`. */
const UNSCOPED = /npx\s+(?:-y\s+|--yes\s+)?tooldock\b|"args":\s*\[\s*(?:"-y",\s*)?"tooldock"/;

function filesUnder(directory: string, keep: (name: string) => boolean): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !path.includes("node_modules") && !path.includes(`${"/"}dist${"/"}`));
}

const documents = [
  ...["README.md", "CONTRIBUTING.md", "SECURITY.md"].map((name) => join(repoRoot, name)),
  ...filesUnder(join(repoRoot, "docs"), (name) => name.endsWith(".md")),
  ...readdirSync(join(repoRoot, "packages")).map((name) => join(repoRoot, "packages", name, "README.md")),
  ...filesUnder(
    join(repoRoot, "packages/cli/src"),
    (name) => name.endsWith(".ts") && !name.includes(".test"),
  ),
];

describe("no command line names the unscoped `tooldock` package for npx", () => {
  it("finds the files it checks", () => {
    expect(documents.length).toBeGreaterThan(20);
  });

  for (const path of documents) {
    it(relative(repoRoot, path), () => {
      const offending = readFileSync(path, "utf8")
        .split("\n")
        .map((line, index) => ({ line: index + 1, text: line }))
        .filter(({ text }) => UNSCOPED.test(text));
      expect(offending).toEqual([]);
    });
  }

  it("the scaffold's README and scripts", () => {
    const names = scaffoldNames("my-tools");
    expect(readmeTemplate(names)).not.toMatch(UNSCOPED);
    expect(readmeTemplate(names)).toContain("npx @tooldock/cli list .");
    expect(packageJsonTemplate(names, "0.1.0")).not.toMatch(UNSCOPED);
  });

  it("recognises the patterns it forbids", () => {
    expect("npx tooldock init x").toMatch(UNSCOPED);
    expect('"args": ["tooldock", "mcp"]').toMatch(UNSCOPED);
    expect("npx @tooldock/cli init x").not.toMatch(UNSCOPED);
    expect('"args": ["-y", "@tooldock/cli", "mcp"]').not.toMatch(UNSCOPED);
  });
});
