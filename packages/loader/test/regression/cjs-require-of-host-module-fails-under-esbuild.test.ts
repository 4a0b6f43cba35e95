import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools, ToolHost } from "../../src/index.js";
import { testCacheDir } from "../helpers.js";

// Found by a bug hunt: under the default compiler a `require()` of a host module (zod,
// TypeBox, @tooldock/sdk, pi's stand-ins) was "E_COMPILE Could not resolve": `require` is
// renamed for the bundle, so esbuild never routed those calls to the host's copies, and at run
// time they were looked up from the tool's folder (where an author's own zod would have been
// taken silently instead). jiti loaded the same modules.
const FILES = {
  "uses-zod.cjs": `const { z } = require("zod");
module.exports = () => ({ name: "cjs_zod", label: "Zod", description: "d",
  parameters: z.object({ q: z.string() }),
  async execute(_id, params) { return { content: [{ type: "text", text: "zod " + params.q }] }; } });
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

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describe.each<CompilerName>(["esbuild", "jiti"])("a CommonJS require of a host module (%s)", (compiler) => {
  it("gets the host's copy, cold and warm (cjs-require-of-host-module-fails-under-esbuild)", async () => {
    const root = testCacheDir(`regression-cjs-host-require-${compiler}`);
    roots.push(root);
    const tools = join(root, "tools");
    await mkdir(tools, { recursive: true });
    for (const [name, text] of Object.entries(FILES)) await writeFile(join(tools, name), text);
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
      const text = async (name: string, params: object) => {
        const answer = await session.execute({ toolCallId: name, name, params });
        return answer.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      };
      expect(await text("cjs_zod", { q: "x" })).toBe("zod x");
      expect(await text("cjs_pi", { m: "b" })).toBe("pi b");
      expect(await text("ts_req", {})).toBe("true");
      await session.dispose();
    }
  });
});
