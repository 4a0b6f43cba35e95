import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { BUILD_OPTIONS } from "../compile/build-options.js";
import { PACK_EXPORT, SYNC_EXPORT, syncMembers } from "./build-packs.js";

const folders: string[] = [];
afterAll(async () => {
  await esbuild.stop();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** esbuild's own output for a pack entry of `files` (name → source), members in that order. */
async function packOf(files: Record<string, string>, members: string[]): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "tooldock-sync-members-"));
  folders.push(folder);
  for (const [name, source] of Object.entries(files)) await writeFile(join(folder, name), source);
  const entries = members.map((name) => JSON.stringify(join(folder, name)));
  const contents = [
    `export const ${PACK_EXPORT} = [${entries.map((entry) => `() => import(${entry})`).join(", ")}];`,
    `export const ${SYNC_EXPORT} = [${entries.map((entry) => `() => require(${entry})`).join(", ")}];`,
  ].join("\n");
  const result = await esbuild.build({
    stdin: { contents, resolveDir: folder, loader: "js" },
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "silent",
    legalComments: BUILD_OPTIONS.legalComments,
  });
  return result.outputFiles[0]?.text ?? "";
}

describe("syncMembers", () => {
  it("reads from esbuild's output which members evaluate without a promise", async () => {
    const code = await packOf(
      {
        "plain.ts": `import { helper } from "./helper.ts";\nexport default () => helper;\n`,
        "helper.ts": `export const helper = 1;\n`,
        "waits.ts": `await Promise.resolve();\nexport default () => 2;\n`,
        "imports-waiting.ts": `import waits from "./waits.ts";\nexport default () => waits;\n`,
        "common.cjs": `module.exports = () => 3;\n`,
      },
      ["plain.ts", "waits.ts", "imports-waiting.ts", "common.cjs"],
    );
    // A CommonJS member is not written as an ES module's init: it keeps its import().
    expect(syncMembers(code, 4)).toEqual([true, false, false, false]);
  });

  it("is not fooled by a module's text that looks like esbuild's output (a lying module)", async () => {
    const code = await packOf(
      {
        "decoy.ts": [
          `const fake = 'var init_waits = __esm({ "waits.ts"() {';`,
          `//! var ${SYNC_EXPORT} = [() => (init_waits(), __toCommonJS(waits_exports)), () => (init_decoy(), __toCommonJS(decoy_exports))];`,
          `//! var ${PACK_EXPORT} = [() => Promise.resolve().then(() => (init_waits(), waits_exports)), () => Promise.resolve().then(() => (init_decoy(), decoy_exports))];`,
          "export default () => fake;",
        ].join("\n"),
        "waits.ts": `await Promise.resolve();\nexport default () => 2;\n`,
      },
      ["waits.ts", "decoy.ts"],
    );
    expect(syncMembers(code, 2)).toEqual([false, true]);
  });

  it("trusts nothing it does not recognise", () => {
    expect(syncMembers("var members = [];", 1)).toEqual([false]);
    expect(syncMembers(`var ${SYNC_EXPORT} = [() => (init_a(), __toCommonJS(a_exports))];`, 2)).toEqual([
      false,
      false,
    ]);
    expect(syncMembers(`var ${SYNC_EXPORT} = [() => (init_a(), __toCommonJS(a_exports))];`, 1)).toEqual([
      false,
    ]);
  });
});
