import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureRuntime } from "../../../../scripts/runtimes.mjs";
import { runNode } from "../per-file/run-node.js";

/**
 * On Node 22.15+ a cold load compiles a tool file by file and serves each package the host
 * shares (`zod`, TypeBox, the SDK) as a module of the host's exports. zod 4 exports names that
 * are reserved words (`catch`, `enum`, `function`, `null`, `void`, `instanceof`), and the module
 * served for it declared each as a `const`: V8 refused it ("Unexpected token 'catch'"), so every
 * tool that imported zod failed its first load with `E_IMPORT` on the Node versions users run,
 * while the suite's Node 20 (which bundles) loaded it.
 */
const here = dirname(fileURLToPath(import.meta.url));
let scratch = "";

beforeAll(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "tooldock-zod-cold-")));
  await mkdir(join(scratch, "tools"));
  await writeFile(
    join(scratch, "tools", "count.ts"),
    [
      'import { z } from "zod";',
      "",
      "// `catch` and `enum` are among zod's exports that are reserved words.",
      "const parameters = z.object({ count: z.number().int().catch(0), unit: z.enum(['m', 'km']) });",
      "",
      "export default () => ({",
      '  name: "zod_count",',
      '  label: "Count",',
      '  description: "Echoes a count.",',
      "  parameters,",
      "  async execute(_id: string, params: z.infer<typeof parameters>) {",
      '    return { content: [{ type: "text" as const, text: `${params.count} ${params.unit}` }] };',
      "  },",
      "});",
      "",
    ].join("\n"),
  );
}, 60_000);
afterAll(async () => {
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

describe.each(["node@22", "node@24", "node@26"])("a tool that imports zod, cold, under %s", (runtime) => {
  it("loads file by file, without E_IMPORT", { timeout: 600_000 }, async () => {
    const node = await ensureRuntime(runtime, { cacheDir: process.env.TOOLDOCK_TEST_RUNTIMES_CACHE });
    const cacheRoot = join(scratch, `cache-${runtime}`);
    const run = await runNode(node, [
      join(here, "../per-file/load-each.mjs"),
      cacheRoot,
      join(scratch, "tools", "count.ts"),
    ]);
    const [load] = JSON.parse(run.stdout) as Array<{
      tools: string[];
      diagnostics: unknown[];
      packsAtReturn: number;
    }>;
    expect(load?.diagnostics).toEqual([]);
    expect(load?.tools).toEqual(["zod_count"]);
    // Compiled file by file (no pack when the load returned), the path the bug was on.
    expect(load?.packsAtReturn).toBe(0);
  });
});
