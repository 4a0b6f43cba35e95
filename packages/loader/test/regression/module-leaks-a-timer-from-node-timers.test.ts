import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCustomTools } from "../../src/index.js";

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  const timers = globalThis as Record<symbol, NodeJS.Timeout[] | undefined>;
  for (const timer of timers[Symbol.for("tooldock.test.leaked")]?.splice(0) ?? []) clearInterval(timer);
});

const tool = (name: string, start: string) => `
${start}
export default (pi: any) => ({
  name: "${name}",
  label: "${name}",
  description: "Leaves a timer behind.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: "ok" }] }; },
});
`;

// A module that starts an interval and never clears it keeps the host alive: W_LEAKED_HANDLE
// names it. Timers started through `node:timers` (a named ES import, or its CommonJS object)
// and from a factory count as much as the global `setInterval` at the top level.
describe("a module that leaves a timer running", () => {
  it("is named by W_LEAKED_HANDLE however it started the timer; a cleared or unref'd one is not", async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), "tooldock-leaked-timer-")));
    folders.push(dir);
    await mkdir(join(dir, "tools"));
    const keep = `const kept = ((globalThis as any)[Symbol.for("tooldock.test.leaked")] ??= []);`;
    const files: Record<string, string> = {
      "a-global.ts": tool("a_global", `${keep}\nkept.push(setInterval(() => {}, 60_000));`),
      "b-named.ts": tool(
        "b_named",
        `import { setInterval as every } from "node:timers";\n${keep}\nkept.push(every(() => {}, 60_000));`,
      ),
      "c-object.ts": tool(
        "c_object",
        `import timers from "node:timers";\n${keep}\nkept.push(timers.setTimeout(() => {}, 60_000));`,
      ),
      "d-factory.ts": tool("d_factory", keep).replace(
        "export default (pi: any) => ({",
        "export default (pi: any) => (kept.push(setInterval(() => {}, 60_000)), {",
      ),
      "e-tidy.ts": tool(
        "e_tidy",
        `clearInterval(setInterval(() => {}, 60_000));\nsetInterval(() => {}, 60_000).unref();`,
      ),
    };
    for (const [name, source] of Object.entries(files)) await writeFile(join(dir, "tools", name), source);
    const { tools, diagnostics } = await loadCustomTools({
      paths: [join(dir, "tools")],
      cwd: dir,
      cacheDir: join(dir, "cache"),
    });
    expect(tools).toHaveLength(5);
    expect(diagnostics.map(({ code, path }) => `${code} ${path?.slice(dir.length)}`)).toEqual([
      "W_LEAKED_HANDLE /tools/a-global.ts",
      "W_LEAKED_HANDLE /tools/b-named.ts",
      "W_LEAKED_HANDLE /tools/c-object.ts",
      "W_LEAKED_HANDLE /tools/d-factory.ts",
    ]);
    // The host's own timer functions are back.
    expect(setInterval.name).toBe("setInterval");
    expect((await import("node:timers")).setTimeout).toBe(setTimeout);
  });
});
