import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { fakeContext, fixturesDir, testCacheDir } from "../helpers.js";

/**
 * Attack (issue 14, item 1): a tool imports a name Tooldock has no stand-in for
 * (`getShellConfig` from `@mariozechner/pi-coding-agent`, `getEditorKeybindings` from pi-tui). esbuild
 * failed the whole module with `No matching export in "tooldock-host:@tooldock/sdk"` (jiti
 * loaded it silently). Fixed: on both compilers the name is `undefined` and each such import
 * is one `W_HOST_EXPORT_MISSING` warning naming it; the tool loads and works.
 */
describe.each<CompilerName>(["esbuild", "jiti"])("an import the stand-ins lack, %s", (compiler) => {
  it("is undefined plus one warning per name, never a failed build", async () => {
    const result = await loadCustomTools({
      paths: [join(fixturesDir, "dialects", "pi", "missing-exports.ts")],
      cwd: fixturesDir,
      compiler,
      cacheDir: testCacheDir(`missing-export-${compiler}`),
    });
    expect(result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity])).toEqual([
      ["W_HOST_EXPORT_MISSING", "warning"],
      ["W_HOST_EXPORT_MISSING", "warning"],
    ]);
    const messages = result.diagnostics.map((diagnostic) => diagnostic.message).sort();
    expect(messages[0]).toContain('imports "getEditorKeybindings" from "@mariozechner/pi-tui"');
    expect(messages[1]).toContain('imports "getShellConfig" from "@mariozechner/pi-coding-agent"');
    const tool = result.tools[0]?.tool;
    const called = await tool?.execute("c1", { bytes: 3 } as never, undefined, fakeContext());
    expect(called?.content).toEqual([{ type: "text", text: "3 B (loader, no keys, no shell)" }]);
  });
});
