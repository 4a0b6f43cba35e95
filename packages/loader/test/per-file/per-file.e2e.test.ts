import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureRuntime } from "../../../../scripts/runtimes.mjs";
import { runNode } from "./run-node.js";

/**
 * A cold load on Node 22.15+ compiles each miss file by file with oxc and serves it through
 * `module.registerHooks` (issue 24, item 4): the load does not wait for esbuild, which builds
 * the packs after it for the next load. Run under Node 24 from the registry (the suite's own
 * Node 20 has no such hooks, and bundles every miss).
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "../../../..");
let node = "";
let scratch = "";

beforeAll(async () => {
  node = await ensureRuntime("node@24", { cacheDir: process.env.TOOLDOCK_TEST_RUNTIMES_CACHE });
  scratch = await realpath(await mkdtemp(join(tmpdir(), "tooldock-per-file-")));
}, 600_000);
afterAll(async () => {
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

interface Load {
  path: string;
  tools: string[];
  diagnostics: unknown[];
  packsAtReturn: number;
  packsCached: number;
}

/** Every module of the broken-module corpora and the examples, one load each. */
async function corpus(): Promise<string[]> {
  const fixtures = join(repo, "packages/loader/test/fixtures");
  const under = async (folder: string, keep: (name: string) => boolean) =>
    (await readdir(folder)).filter(keep).map((name) => join(folder, name));
  // Left out: modules that only wait for a deadline, and one whose leaked interval keeps any
  // process alive (the second run waits for the first to end).
  const skip = /never-settles|factory-timeout|tampering-interval|README/;
  return [
    ...(await under(join(fixtures, "compiler-parity"), (name) => !skip.test(name))),
    ...(await under(fixtures, (name) => name.startsWith("error-") && !skip.test(name))),
    ...(await under(
      join(repo, "packages/loader/test/corpus"),
      (name) => !skip.test(name) && !name.includes("."),
    )),
    ...(await under(
      join(repo, "packages/cli/test/fixtures/broken-modules"),
      (name) => name.endsWith(".ts") && !skip.test(name),
    )),
    ...(await under(join(repo, "packages/examples/tools"), (name) => name.endsWith(".ts"))),
  ];
}

/** Where the module's own error reads differently, and why (the diagnostic is the same otherwise). */
const OWN_MESSAGE_DIFFERS: Record<string, RegExp> = {
  // Native ES modules throw the TDZ ReferenceError; the bundle's lazy init reads `undefined`.
  "circular-uninitialised": /Cannot access 'toolName' before initialization/,
};

describe("a cold load on Node 24", () => {
  it("does not wait for esbuild, and loads and reports what the next load from packs does", {
    timeout: 300_000,
  }, async () => {
    const paths = await corpus();
    const cacheRoot = join(scratch, "corpus-cache");
    const cold = JSON.parse(
      (await runNode(node, [join(here, "load-each.mjs"), cacheRoot, ...paths])).stdout,
    ) as Load[];
    const warm = JSON.parse(
      (await runNode(node, [join(here, "load-each.mjs"), cacheRoot, ...paths])).stdout,
    ) as Load[];
    // No pack when the load returned, its packs once `cached` settled: compiled file by file.
    const perFile = cold.filter((load) => load.packsAtReturn === 0 && load.packsCached > 0);
    // The next load found them and built nothing.
    for (const load of perFile)
      expect(warm[cold.indexOf(load)]?.packsAtReturn, load.path).toBe(load.packsCached);
    expect(perFile.length).toBeGreaterThan(60);
    for (const example of [
      "batch-rename-preview.ts",
      "notes.ts",
      "project-info.ts",
      "run-commands.ts",
      "text-stats.ts",
    ])
      expect(perFile.map((load) => load.path.split("/").at(-1))).toContain(example);
    for (const [at, load] of cold.entries()) {
      const other = warm[at] as Load;
      const name = load.path.split("/").at(-1) as string;
      expect(load.tools, name).toEqual(other.tools);
      const differs = OWN_MESSAGE_DIFFERS[name];
      if (differs === undefined) {
        expect(load.diagnostics, name).toEqual(other.diagnostics);
        continue;
      }
      expect(JSON.stringify(load.diagnostics)).toMatch(differs);
      const withoutMessages = (diagnostics: unknown[]) =>
        diagnostics.map((diagnostic) => ({ ...(diagnostic as object), message: undefined }));
      expect(withoutMessages(load.diagnostics), name).toEqual(withoutMessages(other.diagnostics));
    }
  });

  it("evaluates a module once per process, each entry with its own copy of a shared file, an edited one again", {
    timeout: 120_000,
  }, async () => {
    const root = join(scratch, "reloads");
    const tool = (name: string, description: string) => `import type { CustomToolAPI } from "@tooldock/sdk";
import { id } from "../shared/state.js";
export default (pi: CustomToolAPI) => ({
  name: "${name}",
  label: "${name}",
  description: "${description}",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: id + " " + import.meta.url.split("/").slice(-2).join("/") }] };
  },
});
`;
    const files: Record<string, string> = {
      "tools/a/index.ts": tool("tool_a", "the first a"),
      "tools/b/index.ts": tool("tool_b", "the first b"),
      "tools/shared/state.ts": `declare global { var tooldockTestEvaluations: string[] | undefined; }
globalThis.tooldockTestEvaluations = [...(globalThis.tooldockTestEvaluations ?? []), "state"];
let copies = 0;
export const id: string = \`copy-\${globalThis.tooldockTestEvaluations.length}-\${(copies += 1)}\`;
`,
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const run = await runNode(node, [join(here, "reloads.mjs"), root]);
    const { first, again, edited, packsAtReturn } = JSON.parse(run.stdout);
    // The first load went file by file (no pack yet when it returned), the next ones had packs.
    expect(packsAtReturn[0]).toBe(0);
    expect(packsAtReturn[1]).toBeGreaterThan(0);
    // Each entry evaluated the shared file for itself; `import.meta.url` names the source.
    expect(first.evaluated).toEqual(["state", "state"]);
    expect(first.answers.tool_a.text).toBe("copy-1-1 a/index.ts");
    expect(first.answers.tool_b.text).toMatch(/^copy-2-1 b\/index\.ts$/);
    // Loaded again unchanged: the same modules, nothing evaluated.
    expect(again).toEqual(first);
    // Edited: a is evaluated again (with its own copy of the shared file), b is not.
    expect(edited.evaluated).toEqual(["state", "state", "state"]);
    expect(edited.answers.tool_a.description).toBe("the edited a");
    expect(edited.answers.tool_b).toEqual(first.answers.tool_b);
    expect(edited.diagnostics).toEqual([]);
  });

  it("evaluates a module whose top level threw again on the next load, once its cause is fixed", {
    timeout: 120_000,
  }, async () => {
    // Bug: the graph served before was served again, and Node rethrew its first evaluation's error.
    const root = join(scratch, "threw-then-fixed");
    await mkdir(join(root, "tools"), { recursive: true });
    await writeFile(
      join(root, "tools/configured.ts"),
      `import { readFileSync } from "node:fs";
const config: { greeting: string } = JSON.parse(readFileSync(new URL("./config.json", import.meta.url), "utf8"));
export default (pi: any) => ({
  name: "configured",
  label: "Configured",
  description: \`Greets with \${config.greeting}.\`,
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: config.greeting }] };
  },
});
`,
    );
    const run = await runNode(node, [join(here, "threw-then-fixed.mjs"), root]);
    const { missing, stillMissing, fixed } = JSON.parse(run.stdout);
    // File by file (no pack when the first load returned), and failing until the file is there.
    expect(missing).toEqual({ tools: [], codes: ["E_IMPORT"], packs: 0 });
    expect(stillMissing).toMatchObject({ tools: [], codes: ["E_IMPORT"] });
    expect(fixed).toMatchObject({ tools: ["configured"], codes: [] });
  });

  it("keeps the modules of a warm start that did not change when a neighbour in their pack is edited", {
    timeout: 120_000,
  }, async () => {
    const root = join(scratch, "neighbours");
    const tool = (name: string) => `import type { CustomToolAPI } from "@tooldock/sdk";
declare global { var tooldockTestEvaluations: string[] | undefined; }
globalThis.tooldockTestEvaluations = [...(globalThis.tooldockTestEvaluations ?? []), "${name}"];
export default (pi: CustomToolAPI) => ({
  name: "tool_${name}",
  label: "${name}",
  description: "the first ${name}",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "${name}" }] };
  },
});
`;
    const files: Record<string, string> = {
      // Its import fails when Node resolves it (the package's export names a missing file),
      // after the module itself compiled: Node 24 loads the module again on the next import.
      "broken/index.ts":
        'import gone from "gone-lib";\nexport enum Kind { A }\nexport default () => [gone, Kind];\n',
      "broken/node_modules/gone-lib/package.json": '{ "name": "gone-lib", "exports": "./missing.js" }',
    };
    for (const name of ["a", "b", "c", "d", "e"]) files[`tools/${name}.ts`] = tool(name);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const cold = JSON.parse((await runNode(node, [join(here, "neighbours.mjs"), root, "cold"])).stdout);
    expect(cold.tools.tools).toEqual(["tool_a", "tool_b", "tool_c", "tool_d", "tool_e"]);
    // Loaded again in the same process after its import failed: the same report, not Node's
    // own reading of the TypeScript file (Node 24 loads the URL a second time).
    expect(cold.broken[0].diagnostics.map((entry: { code: string }) => entry.code)).toEqual(["E_COMPILE"]);
    expect(cold.broken[0].diagnostics[0].message).toMatch(/gone-lib/);
    expect(cold.broken[1]).toEqual(cold.broken[0]);

    const warm = JSON.parse((await runNode(node, [join(here, "neighbours.mjs"), root, "warm"])).stdout);
    expect(warm.afterFirst.sort()).toEqual(["a", "b", "c", "d", "e"]);
    expect(warm.edited.tools).toEqual(warm.first.tools);
    // Only the edited module is evaluated again; its neighbours keep their one evaluation.
    expect(warm.afterEdit.slice(warm.afterFirst.length)).toEqual(["d"]);
  });

  it("says when the packs of a load compiled file by file cannot be written: the next load compiles again", {
    timeout: 120_000,
  }, async () => {
    const root = join(scratch, "blocked");
    await mkdir(join(root, "tools"), { recursive: true });
    await writeFile(
      join(root, "tools", "plain.ts"),
      'export default (pi: any) => ({ name: "plain", label: "plain", description: "d", parameters: pi.typebox.Type.Object({}), execute: async () => ({ content: [] }) });\n',
    );
    // Where the index of the module's pack goes, a folder: the load reads no index there, and
    // the write after it fails.
    const entry = join(root, "tools", "plain.ts");
    const index = join(
      root,
      "cache",
      "index",
      `${createHash("sha256").update(entry).digest("hex").slice(0, 32)}.json`,
    );
    await mkdir(index, { recursive: true, mode: 0o700 });
    await chmod(join(root, "cache"), 0o700);
    await chmod(join(root, "cache", "index"), 0o700);
    const run = await runNode(node, [
      join(here, "cache-blocked.mjs"),
      join(root, "tools"),
      join(root, "cache"),
    ]);
    const outcome = JSON.parse(run.stdout);
    expect(outcome).toMatchObject({ tools: 1, diagnostics: [], cached: ["W_CACHE_UNWRITABLE"] });
    expect(outcome.message).toMatch(/compiled file by file are compiled again by the next one/);
  });
});
