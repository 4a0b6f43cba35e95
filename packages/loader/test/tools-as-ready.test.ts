import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { type LoadProgress, loadCustomTools } from "../src/index.js";
import { testCacheDir } from "./helpers.js";

const compilers = ["esbuild", "jiti"] as const;

function toolSource(name: string, topLevel = ""): string {
  return `${topLevel}
export default (pi: any) => ({ name: "${name}", label: "${name}", description: "A tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: "ran ${name}" }] }; } });
`;
}

async function toolFolder(label: string, files: Record<string, string>): Promise<string> {
  const dir = join(testCacheDir(label), "..", `${label}-tools-${Math.random().toString(36).slice(2, 8)}`);
  await mkdir(dir, { recursive: true });
  for (const [name, source] of Object.entries(files)) await writeFile(join(dir, name), source);
  return dir;
}

describe("tools handed out as they are ready", () => {
  it.for(compilers)(
    "%s: each module's tools are registered in the session, and callable, before the batch ends",
    async (compiler) => {
      const dir = await toolFolder(`ready-${compiler}`, {
        "a.ts": toolSource("tool_a"),
        "b.ts": toolSource("tool_b"),
        "c.ts": toolSource("tool_c"),
      });
      const session = new Session({ cwd: dir });
      const seen: Array<{ module: string; registered: string[]; call?: Promise<unknown> }> = [];
      const { tools, diagnostics, changes } = await loadCustomTools({
        paths: [dir],
        cwd: dir,
        cacheDir: testCacheDir(`ready-${compiler}`),
        compiler,
        session,
        onProgress: (progress: LoadProgress) => {
          const names = progress.tools.map((loaded) => loaded.tool.name);
          seen.push({
            module: progress.module.path,
            registered: session.tools().map((tool) => tool.name),
            // The host uses the tool at once, while later modules still load.
            call:
              names[0] === undefined
                ? undefined
                : session.execute({ toolCallId: "1", name: names[0], params: {} }),
          });
        },
      });
      expect(diagnostics).toEqual([]);
      expect(seen.map((entry) => entry.registered.filter((name) => name !== "resolve"))).toEqual([
        ["tool_a"],
        ["tool_a", "tool_b"],
        ["tool_a", "tool_b", "tool_c"],
      ]);
      const results = await Promise.all(seen.map((entry) => entry.call));
      expect(
        results.map((result) => (result as { content: Array<{ text: string }> }).content[0]?.text),
      ).toEqual(["ran tool_a", "ran tool_b", "ran tool_c"]);
      expect(tools.map((loaded) => loaded.tool.name)).toEqual(["tool_a", "tool_b", "tool_c"]);
      expect(changes).toEqual({ added: ["tool_a", "tool_b", "tool_c"], removed: [], replaced: [] });
    },
  );

  it.for(compilers)(
    "%s: a module caught exiting from a timer late in the batch has its registered tool withdrawn",
    async (compiler) => {
      const dir = await toolFolder(`ready-late-${compiler}`, {
        "a-late.ts": toolSource("late_exit", "setTimeout(() => process.exit(9), 0);"),
        "b-fine.ts": toolSource("fine"),
      });
      const session = new Session({ cwd: dir });
      const handedOut: string[] = [];
      const { tools, diagnostics, changes } = await loadCustomTools({
        paths: [dir],
        cwd: dir,
        cacheDir: testCacheDir(`ready-late-${compiler}`),
        compiler,
        session,
        onProgress: ({ tools: ready }) => handedOut.push(...ready.map((loaded) => loaded.tool.name)),
      });
      expect(handedOut).toEqual(["late_exit", "fine"]);
      expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path])).toEqual([
        ["E_PROCESS_EXIT", join(dir, "a-late.ts")],
      ]);
      expect(tools.map((loaded) => loaded.tool.name)).toEqual(["fine"]);
      expect(session.get("late_exit")).toBeUndefined();
      expect(session.get("fine")).toBeDefined();
      expect(changes).toEqual({ added: ["fine"], removed: [], replaced: [] });
    },
  );
});
