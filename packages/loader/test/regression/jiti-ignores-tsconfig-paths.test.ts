import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";

// Found by a bug hunt: a tool importing its own helper through a tsconfig `paths` alias
// (`@lib/greet` → `src/lib/greet.ts`) loaded with esbuild but was "E_COMPILE Could not resolve"
// under jiti, also when the loader fell back to jiti by itself (a group-writable cache folder).
const FILES: Record<string, string> = {
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      baseUrl: ".",
      paths: { "@lib/*": ["src/lib/*"], "@config": ["src/config.ts"], "@acme/*": ["src/acme/*"] },
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
    },
  }),
  "src/lib/greet.ts": 'export const greet = (name: string) => "hi " + name;\n',
  "src/config.ts": 'export const punctuation = "!";\n',
  // A pattern that finds none of the tool's files leaves the import to the installed package.
  "node_modules/@acme/util/package.json": JSON.stringify({ name: "@acme/util", main: "index.js" }),
  "node_modules/@acme/util/index.js": 'exports.mark = "?";\n',
  "src/tools/alias.ts": `import { greet } from "@lib/greet";
import { punctuation } from "@config";
import { mark } from "@acme/util";
export default (pi: any) => ({ name: "alias_tool", label: "A", description: "d", parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text", text: greet("x") + punctuation + mark }] }; } });
`,
};

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describe.each<CompilerName>(["esbuild", "jiti"])("a tsconfig paths alias (%s)", (compiler) => {
  it("leads to the tool's own source (jiti-ignores-tsconfig-paths)", async () => {
    // Outside node_modules (where the suite's cache folders are): esbuild reads no tsconfig there.
    const root = await realpath(await mkdtemp(join(tmpdir(), `tooldock-jiti-paths-${compiler}-`)));
    roots.push(root);
    for (const [name, text] of Object.entries(FILES)) {
      await mkdir(join(root, name, ".."), { recursive: true });
      await writeFile(join(root, name), text);
    }
    const result = await loadCustomTools({
      paths: [join(root, "src", "tools")],
      cwd: root,
      cacheDir: join(root, "cache"),
      compiler,
    });
    await result.cached; // written after the load on Node 22.15+: before the folder goes
    expect(result.diagnostics).toEqual([]);
    const tool = result.tools[0]?.tool;
    const answer = await tool?.execute("call", {}, undefined, undefined as never);
    expect(answer?.content).toEqual([{ type: "text", text: "hi x!?" }]);
  });
});
