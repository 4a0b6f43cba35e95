import { execFile } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Session } from "@tooldock/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools, ToolHost } from "../../src/index.js";

// Found by a bug hunt: under the default compiler a `require()` of a host module (zod,
// TypeBox, @tooldock/sdk, pi's stand-ins) was "E_COMPILE Could not resolve": `require` is
// renamed for the bundle, so esbuild never routed those calls to the host's copies, and at run
// time they were looked up from the tool's folder (where an author's own zod would have been
// taken silently instead). jiti loaded the same modules.
const FILES = {
  "uses-zod.cjs": `const { z } = require("zod");
module.exports = (pi) => ({ name: "cjs_zod", label: "Zod", description: "d",
  parameters: z.object({ q: z.string() }),
  async execute(_id, params) { return { content: [{ type: "text", text: "zod " + params.q + " " + (z === pi.zod) }] }; } });
`,
  "uses-pi-ai.cjs": `const { StringEnum } = require("@mariozechner/pi-ai");
module.exports = (pi) => ({ name: "cjs_pi", label: "Pi", description: "d",
  parameters: pi.typebox.Type.Object({ m: StringEnum(["a", "b"]) }),
  async execute(_id, params) { return { content: [{ type: "text", text: "pi " + params.m }] }; } });
`,
  "ts-require.ts": `const { Type } = require("@sinclair/typebox");
const sdk = require("@tooldock/sdk");
export default (pi: any) => ({ name: "ts_req", label: "Req", description: "d", parameters: Type.Object({}),
  async execute() { return sdk.textResult(String(Type === pi.typebox.Type)); } });
`,
};

const run = promisify(execFile);
const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describe.each<CompilerName>(["esbuild", "jiti"])("a CommonJS require of a host module (%s)", (compiler) => {
  it("gets the host's copy, cold and warm (cjs-require-of-host-module-fails-under-esbuild)", async () => {
    // Outside the repository: no node_modules above the tool could answer its require instead.
    const root = await realpath(await mkdtemp(join(tmpdir(), `tooldock-cjs-host-require-${compiler}-`)));
    roots.push(root);
    const tools = join(root, "tools");
    await mkdir(tools, { recursive: true });
    for (const [name, text] of Object.entries(FILES)) await writeFile(join(tools, name), text);
    // The bundle hands the host's very `z` (`pi.zod`); jiti's interop hands an equivalent one.
    const zodAnswer = compiler === "esbuild" ? "zod x true" : expect.stringMatching(/^zod x (true|false)$/);
    for (const run of ["cold", "warm"]) {
      const session = new Session({ cwd: root });
      const result = await loadCustomTools({
        paths: [tools],
        cwd: root,
        cacheDir: join(root, "cache"),
        compiler,
        host: new ToolHost({ cwd: root }),
        session,
      });
      expect({ run, diagnostics: result.diagnostics }).toEqual({ run, diagnostics: [] });
      await result.cached; // the packs the warm run reads
      const text = async (name: string, params: object) => {
        const answer = await session.execute({ toolCallId: name, name, params });
        return answer.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      };
      expect(await text("cjs_zod", { q: "x" })).toEqual(zodAnswer);
      expect(await text("cjs_pi", { m: "b" })).toBe("pi b");
      expect(await text("ts_req", {})).toBe("true");
      await session.dispose();
    }
    // A warm load in a fresh process, where nothing registered the host modules the tools
    // require: it registers them from what the cache kept of each member.
    const fresh = await loadInFreshProcess(tools, join(root, "cache"), compiler);
    expect(fresh).toEqual({ diagnostics: [], zod: zodAnswer, pi: "pi b", req: "true" });
  });
});

/** Loads `tools` in a new Node process (the built loader) and calls the three tools there. */
async function loadInFreshProcess(tools: string, cacheDir: string, compiler: CompilerName) {
  const loader = new URL("../../dist/index.js", import.meta.url).href;
  const runtime = import.meta.resolve("@tooldock/runtime");
  const script = `
    const { loadCustomTools, ToolHost } = await import(${JSON.stringify(loader)});
    const { Session } = await import(${JSON.stringify(runtime)});
    const session = new Session({ cwd: ${JSON.stringify(tools)} });
    const result = await loadCustomTools({ paths: [${JSON.stringify(tools)}], cwd: ${JSON.stringify(tools)},
      cacheDir: ${JSON.stringify(cacheDir)}, compiler: ${JSON.stringify(compiler)},
      host: new ToolHost({ cwd: ${JSON.stringify(tools)} }), session });
    const text = async (name, params) => (await session.execute({ toolCallId: name, name, params }))
      .content.map((block) => block.text ?? "").join("");
    const answer = { diagnostics: result.diagnostics, zod: await text("cjs_zod", { q: "x" }),
      pi: await text("cjs_pi", { m: "b" }), req: await text("ts_req", {}) };
    await session.dispose();
    process.stdout.write(JSON.stringify(answer));
  `;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
  return JSON.parse(stdout) as unknown;
}
