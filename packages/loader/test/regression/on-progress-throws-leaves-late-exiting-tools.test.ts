import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { testCacheDir } from "../helpers.js";

// Bug: an `onProgress` that threw (a host bug) made `loadCustomTools` reject on the spot. The
// batch's end never ran, so a module caught exiting from a timer kept the tools it had been
// handed out with registered in the session (never withdrawn), and the modules after the throw
// were never loaded. Now the load runs to its end (late-caught modules withdrawn), calls
// `onProgress` no more after it threw, then rejects with the host's own error.

function toolSource(name: string, topLevel = ""): string {
  return `${topLevel}
export default (pi: any) => ({ name: "${name}", label: "${name}", description: "A tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: "ran ${name}" }] }; } });
`;
}

describe.each<CompilerName>(["esbuild", "jiti"])("an onProgress that throws (%s)", (compiler) => {
  it("still withdraws a late-caught module's tools, loads the rest, then rejects with the host's error", async () => {
    const cacheDir = testCacheDir(`on-progress-throws-${compiler}`);
    const dir = join(
      cacheDir,
      "..",
      `${compiler}-on-progress-throws-tools-${Math.random().toString(36).slice(2, 8)}`,
    );
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "a-late.ts"), toolSource("late_exit", "setTimeout(() => process.exit(9), 0);"));
    await writeFile(join(dir, "b.ts"), toolSource("tool_b"));
    await writeFile(join(dir, "c.ts"), toolSource("tool_c"));
    const session = new Session({ cwd: dir });
    const hostBug = new Error("the host's progress bar broke");
    const progressed: string[] = [];
    const load = loadCustomTools({
      paths: [dir],
      cwd: dir,
      cacheDir,
      compiler,
      session,
      onProgress: ({ module }) => {
        progressed.push(module.path);
        if (progressed.length === 2) throw hostBug;
      },
    });
    await expect(load).rejects.toBe(hostBug);
    expect(progressed).toEqual([join(dir, "a-late.ts"), join(dir, "b.ts")]);
    const names = session.tools().map((tool) => tool.name);
    expect(names).not.toContain("late_exit");
    expect(names).toEqual(expect.arrayContaining(["tool_b", "tool_c"]));
  });
});
