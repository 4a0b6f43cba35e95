// Attack (issue 15, RSS per tool): one non-ASCII character in a tool's source (an ellipsis in a
// message, an accented word, an emoji) was written into its bundle and its pack as is
// (esbuild's `charset: "utf8"`). V8 keeps a module's source text for as long as the module
// lives, and a text with one character above U+00FF is stored two bytes per character: the
// whole pack, every member's source, took twice the memory (a warm load of 500 generated
// tools, one ellipsis each, kept 2 MB more, 4 KB per tool). Fixed: bundles and packs are
// written ASCII-only (esbuild's default: `\u2026` in strings, `caf\u00E9` in names), which
// leaves what the code does alone, and the source maps still lead a stack trace to the
// author's line. (Tagged templates and regular expression literals keep their characters:
// escaping them would change the code.)
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Session, type SessionEvent } from "@tooldock/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { loadCustomTools } from "../../src/index.js";
import { testCacheDir } from "../helpers.js";

const NAMES = ["a-resume", "b-cafe", "c-smile"];

function source(name: string): string {
  const tool = name.slice(2);
  return `const café = "Café";
export default (pi: any) => ({
  name: "${tool}",
  label: "Résumé ${tool} …",
  description: \`Cuts «text» with an ellipsis (…) 🙂 \${café}\`,
  parameters: pi.typebox.Type.Object({}),
  async execute(_id: string, params: { fail?: boolean }) {
    if (params.fail) throw new Error("échec — quota dépassé …"); // THROW
    return { content: [{ type: "text", text: \`raw… \${"été".length}\` }] };
  },
});
`;
}

const throwLine =
  source("a-x")
    .split("\n")
    .findIndex((line) => line.includes("// THROW")) + 1;

describe("regression: non-ASCII text in a tool no longer doubles the memory its pack takes", () => {
  const cacheDir = testCacheDir("non-ascii-pack");
  const dir = join(cacheDir, "..", `non-ascii-tools-${Math.random().toString(36).slice(2, 8)}`);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("writes ASCII-only bundles and packs, and every string and stack line is the author's", async () => {
    await mkdir(dir, { recursive: true });
    for (const name of NAMES) await writeFile(join(dir, `${name}.ts`), source(name));
    const paths = NAMES.map((name) => join(dir, `${name}.ts`));
    // Cold (builds and writes), then warm (loads what was written).
    for (const start of ["cold", "warm"]) {
      const session = new Session({ cwd: dir });
      const loaded = await loadCustomTools({ paths, cwd: dir, cacheDir, session });
      expect(loaded.diagnostics, start).toEqual([]);
      const tool = loaded.tools.find((entry) => entry.tool.name === "resume")?.tool;
      expect(tool?.label).toBe("Résumé resume …");
      expect(tool?.description).toBe("Cuts «text» with an ellipsis (…) 🙂 Café");
      const ok = await session.execute({ toolCallId: "c1", name: "resume", params: {} });
      expect(ok.content).toEqual([{ type: "text", text: "raw… 3" }]);

      const ends: SessionEvent[] = [];
      session.subscribe((event) => {
        if (event.type === "tool-call-end") ends.push(event);
      });
      // Node's own stack formatting (the one a host has), which reads the source maps.
      const vitestPrepare = Error.prepareStackTrace;
      Reflect.deleteProperty(Error, "prepareStackTrace");
      try {
        await session.execute({ toolCallId: "c2", name: "resume", params: { fail: true } });
      } finally {
        Error.prepareStackTrace = vitestPrepare;
      }
      await session.dispose();
      const error = ends[0]?.type === "tool-call-end" ? ends[0].error : undefined;
      expect(error?.message).toBe("échec — quota dépassé …");
      expect(error?.stack).toContain(`${join(dir, "a-resume.ts")}:${throwLine}:`);
      // On Node 22.15+ the modules of a miss load file by file and their packs come after.
      expect(await loaded.cached, start).toEqual([]);
    }
    const written = (await readdir(join(cacheDir, "bundles"))).filter((file) => file.endsWith(".mjs"));
    expect(written.some((file) => file.startsWith("pack-"))).toBe(true);
    for (const file of written) {
      const text = await readFile(join(cacheDir, "bundles", file), "utf8");
      // V8 stores a text with no character above U+00FF one byte per character.
      expect(/[\u0080-\uffff]/.test(text), file).toBe(false);
    }
  });
});
