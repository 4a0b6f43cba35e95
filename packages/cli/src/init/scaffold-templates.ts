import type { ScaffoldNames } from "./scaffold-names.js";

/** The version range scaffolds depend on: the release line of this CLI. */
export function tooldockRange(version: string): string {
  return `^${version}`;
}

/**
 * The Tooldock packages a scaffold installs as dev dependencies (the runtime comes with the
 * loader, ast-edit with the CLI).
 */
export const SCAFFOLD_TOOLDOCK_PACKAGES: readonly string[] = [
  "@tooldock/ast-edit",
  "@tooldock/cli",
  "@tooldock/loader",
  "@tooldock/runtime",
  "@tooldock/sdk",
];

/** Packages another scaffold dependency depends on: listed only for a local install. */
const BROUGHT_BY_OTHERS: ReadonlySet<string> = new Set(["@tooldock/runtime", "@tooldock/ast-edit"]);

/**
 * `package.json`: the `tooldock` manifest (the whole `tools/` folder, so a second tool file is
 * loaded too), `@tooldock/sdk` as a peer, test and validate scripts. `localPackages` maps a
 * package name to a `file:` spec of a local tarball (`tooldock init --from`); those packages
 * are dev dependencies on the tarball instead of a registry range.
 */
export function packageJsonTemplate(
  names: ScaffoldNames,
  version: string,
  localPackages: Readonly<Record<string, string>> = {},
): string {
  const range = tooldockRange(version);
  const tooldockDevDependencies: Record<string, string> = {};
  for (const name of SCAFFOLD_TOOLDOCK_PACKAGES) {
    const local = localPackages[name];
    // The runtime and ast-edit are listed only for a local install (so npm takes their tarballs,
    // not a registry version): from the registry the loader and the CLI bring them.
    if (local !== undefined) tooldockDevDependencies[name] = local;
    else if (!BROUGHT_BY_OTHERS.has(name)) tooldockDevDependencies[name] = range;
  }
  const manifest = {
    name: names.packageName,
    version: "0.1.0",
    description: `Tooldock custom tools: ${names.toolName}.`,
    license: "MIT",
    type: "module",
    keywords: ["tooldock", "tooldock-tools", "ai-agent-tools"],
    files: ["tools", "README.md"],
    exports: { "./package.json": "./package.json", "./tools/*": "./tools/*" },
    tooldock: { tools: ["./tools"] },
    scripts: { test: "vitest run", validate: "tooldock validate . --strict" },
    peerDependencies: { "@tooldock/sdk": range },
    devDependencies: {
      ...tooldockDevDependencies,
      "@types/node": "^20.19.0",
      typescript: "^5.9.3",
      vitest: "^4.1.12",
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The tool module: a TypeBox tool that counts words, with an error result for empty text. */
export function toolTemplate(names: ScaffoldNames): string {
  return `// A Tooldock tool module: the default export is a factory that receives the host API (\`pi\`).
// Schemas come from \`pi.typebox\` (or \`pi.zod\`) so the host's single copy validates them.
import type { CustomToolAPI } from "@tooldock/sdk";
import { defineTool, defineToolFactory, errorResult, textResult } from "@tooldock/sdk";

export default defineToolFactory((pi: CustomToolAPI) => {
  const { Type } = pi.typebox;
  return defineTool({
    name: "${names.toolName}",
    label: "${names.label}",
    description: "Count the words in a piece of text. Replace this with what your tool does and when to call it.",
    parameters: Type.Object(
      { text: Type.String({ description: "The text to count the words of" }) },
      { additionalProperties: false },
    ),
    async execute(_toolCallId, params) {
      const words = params.text.split(/\\s+/).filter(Boolean);
      if (words.length === 0) return errorResult("The text is empty; pass the text whose words to count.");
      return textResult(\`\${words.length} \${words.length === 1 ? "word" : "words"}\`, { words: words.length });
    },
  });
});
`;
}

/** The vitest test: loads the package through `@tooldock/loader/testing` as a host would. */
export function testTemplate(names: ScaffoldNames): string {
  return `import { fileURLToPath } from "node:url";
import { createToolHarness, type ToolHarness } from "@tooldock/loader/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// Loads this package the way a host does: through the "tooldock" field of package.json.
const packageDir = fileURLToPath(new URL("..", import.meta.url));

describe("${names.toolName}", () => {
  let harness: ToolHarness;

  beforeEach(async () => {
    harness = await createToolHarness({ paths: packageDir });
  });

  afterEach(async () => {
    await harness.dispose();
  });

  it("loads without diagnostics", () => {
    expect(harness.diagnostics).toEqual([]);
    // Every file in tools/ is loaded; add tools next to this one and give each its own test.
    expect(harness.tools.map((loaded) => loaded.tool.name)).toContain("${names.toolName}");
  });

  it("counts words", async () => {
    const result = await harness.call("${names.toolName}", { text: "one two  three" });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "3 words" }]);
  });

  it("reports empty text as an error the model can act on", async () => {
    const result = await harness.call("${names.toolName}", { text: "   " });
    expect(result.isError).toBe(true);
  });

  it("rejects arguments that do not match the schema", async () => {
    const result = await harness.call("${names.toolName}", { words: 3 });
    expect(result.isError).toBe(true);
  });
});
`;
}

/** `tsconfig.json` for editors and `tsc --noEmit` (the loader compiles the tools itself). */
export function tsconfigTemplate(): string {
  const config = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      verbatimModuleSyntax: true,
      types: ["node"],
    },
    include: ["tools", "test"],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** The package README: the tool, how to develop it, how hosts use it. */
export function readmeTemplate(names: ScaffoldNames): string {
  return `# ${names.packageName}

Tooldock custom tools. The \`tooldock\` field of \`package.json\` lists the \`tools/\` folder: a host
loads every module in it, so a new tool is a new file there (with a test in \`test/\`).

| tool | what it does |
|---|---|
| \`${names.toolName}\` | counts the words in a text |

## Develop

\`\`\`sh
npm install
npm test                 # vitest, with @tooldock/loader/testing
npx @tooldock/cli list . # the tools as a host sees them
npm run validate         # the contract check CI runs (tooldock validate . --strict)
\`\`\`

## Use

Hosts load the package folder (or \`node_modules/${names.packageName}\`) with \`@tooldock/loader\`,
or from the command line: \`npx @tooldock/cli call ${names.toolName} . --args '{"text":"a b c"}'\`.
\`@tooldock/sdk\` is a peer dependency: the host provides it.
`;
}

/** `.gitignore`. */
export const GITIGNORE_TEMPLATE = "node_modules\n.tooldock-cache\n";
