// zod is loaded on first use (runtime: `loadZodCore`, loader: `loadZod` for `pi.zod`), not at
// every start of a host or a tool host. What a tool sees must not change: zod schemas, from
// its own import or from `pi.zod`, describe, validate and word their errors as before, and
// `pi.zod` is the very `z` the tool imports (one copy of zod, one registry of descriptions).
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { asSchema } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { builtEntry } from "../helpers.js";
import { load, project, text } from "./isolation-helpers.js";

const ZOD_TOOLS = `
import { z } from "zod";
export default (pi) => [
  {
    name: "imported",
    label: "Imported",
    description: "A zod schema from the tool's own import",
    parameters: z.object({ n: z.number().describe("a number") }),
    async execute(id, params) {
      return { content: [{ type: "text", text: JSON.stringify({ n: params.n, same: pi.zod === z }) }] };
    },
  },
  {
    name: "from_pi",
    label: "From pi",
    description: "A zod schema from pi.zod",
    parameters: pi.zod.object({ s: pi.zod.string().min(2).describe("two or more") }),
    async execute(id, params) {
      return { content: [{ type: "text", text: params.s }] };
    },
  },
];
`;

/** Only pi.zod, no import: the first read of pi.zod loads zod. */
const PI_ZOD_ONLY = `
export default (pi) => ({
  name: "only_pi",
  label: "Only pi",
  description: "pi.zod without an import of zod",
  parameters: pi.zod.object({ flag: pi.zod.boolean() }),
  async execute(id, params) {
    return { content: [{ type: "text", text: String(params.flag) }] };
  },
});
`;

describe.each(["none", "process"] as const)("zod tools with isolation %s", (isolation) => {
  it("describe, validate and share one zod with pi.zod", async () => {
    const where = await project({ "zod-tools.ts": ZOD_TOOLS, "only-pi.ts": PI_ZOD_ONLY });
    const { session, tools, diagnostics } = await load(where, isolation);
    expect(diagnostics).toEqual([]);
    const byName = Object.fromEntries(tools.map(({ tool }) => [tool.name, tool]));
    const schemaText = (name: string) => JSON.stringify(asSchema(session.get(name)?.parameters).jsonSchema);
    expect(schemaText("imported")).toContain('"description":"a number"');
    expect(schemaText("from_pi")).toContain('"description":"two or more"');
    expect(Object.keys(byName).sort()).toEqual(["from_pi", "imported", "only_pi"]);

    const imported = await session.execute({ toolCallId: "1", name: "imported", params: { n: 4 } });
    expect(JSON.parse(text(imported))).toEqual({ n: 4, same: true });
    const short = await session.execute({ toolCallId: "2", name: "from_pi", params: { s: "x" } });
    expect(short.isError).toBe(true);
    expect(text(short)).toContain("/s:");
    const onlyPi = await session.execute({ toolCallId: "3", name: "only_pi", params: { flag: true } });
    expect(text(onlyPi)).toBe("true");
  });
});

describe("zod tools from the built packages", () => {
  it.each([
    ["where Node can require an ES module", []],
    ["where it cannot (the host falls back to zod's CommonJS build)", ["--no-experimental-require-module"]],
  ])(
    "load and run in-process and in the tool host's bundle, %s",
    async (_where, flags) => {
      const where = await project({ "zod-tools.ts": ZOD_TOOLS, "only-pi.ts": PI_ZOD_ONLY });
      const script = join(where.root, "host.mjs");
      await writeFile(
        script,
        `import { loadCustomTools } from ${JSON.stringify(builtEntry("loader"))};
import { Session } from ${JSON.stringify(builtEntry("runtime"))};
const report = { requireModule: process.features.require_module };
for (const isolation of ["none", "process"]) {
  const session = new Session({ cwd: ${JSON.stringify(where.work)} });
  const loaded = await loadCustomTools({ paths: [${JSON.stringify(where.tools)}], cwd: ${JSON.stringify(where.work)},
    cacheDir: ${JSON.stringify(join(where.root, "cache"))} + isolation, session, isolation });
  const call = (name, params) => session.execute({ toolCallId: "1", name, params });
  report[isolation] = {
    diagnostics: loaded.diagnostics.map((diagnostic) => diagnostic.message),
    imported: (await call("imported", { n: 2 })).content[0].text,
    short: (await call("from_pi", { s: "x" })).isError,
    onlyPi: (await call("only_pi", { flag: false })).content[0].text,
  };
  await loaded.isolated?.close();
}
console.log(JSON.stringify(report));
`,
      );
      const { stdout } = await promisify(execFile)(process.execPath, [...flags, script], {
        encoding: "utf8",
      });
      const expected = { diagnostics: [], imported: '{"n":2,"same":true}', short: true, onlyPi: "false" };
      expect(JSON.parse(stdout)).toEqual({
        requireModule: flags.length === 0,
        none: expected,
        process: expected,
      });
    },
    120_000,
  );
});
