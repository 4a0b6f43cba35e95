import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeDiscoveryFileSystem } from "../../src/discover/file-system.js";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { testCacheDir } from "../helpers.js";

// Bug: streamed discovery went on while a module's top-level await was pending. A module that
// replaced `Array.prototype.push` at its top level, awaited, and put it back before its step
// ended left no trace for the built-ins check, but the discovery code that resumed in between
// called the replacement: discovery stopped with an `E_DISCOVERY` blaming Tooldock, and the
// modules it had not reached yet were never loaded. Now a discovery step that waited for the
// file system resumes only between modules (a DiscoveryGate), with the real built-ins.

function toolSource(name: string, topLevel = ""): string {
  return `${topLevel}
export default (pi: any) => ({ name: "${name}", label: "${name}", description: "A tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: "ran ${name}" }] }; } });
`;
}

// The replacement throws when Tooldock's own code calls it (the bug), and passes any other
// caller to the real push: the test runner's own timers (vitest's task updates) may run in the
// same 20 ms and must not break. The caller is read from a stack formatted by V8 itself
// (`prepareStackTrace` set aside, so no hook runs, and none calls push again).
const tampering = `const saved = Array.prototype.push;
Array.prototype.push = function (...items: unknown[]) {
  const prepare = (Error as any).prepareStackTrace;
  (Error as any).prepareStackTrace = undefined;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder);
  (Error as any).prepareStackTrace = prepare;
  if (/[\\/]packages[\\/](loader|runtime)[\\/]src[\\/]/.test(holder.stack ?? ""))
    throw new Error("push replaced by a-tamper.ts");
  return saved.apply(this, items);
};
(globalThis as any).__tooldockDiscoveryGateRelease?.();
await new Promise((resolve) => setTimeout(resolve, 20));
Array.prototype.push = saved;`;

describe.each<CompilerName>(["esbuild", "jiti"])(
  "a built-in replaced during a top-level await (%s)",
  (compiler) => {
    it("does not reach discovery: every module after it is found and loaded", async () => {
      const cacheDir = testCacheDir(`discovery-gate-${compiler}`);
      const dir = join(
        cacheDir,
        "..",
        `${compiler}-discovery-gate-tools-${Math.random().toString(36).slice(2, 8)}`,
      );
      const more = join(dir, "more");
      await mkdir(more, { recursive: true });
      await writeFile(join(dir, "a-tamper.ts"), toolSource("tamper", tampering));
      await writeFile(join(more, "b.ts"), toolSource("tool_b"));
      await writeFile(join(more, "c.ts"), toolSource("tool_c"));
      // The folder `more` is read once a-tamper.ts has replaced `push`, so the read ends while
      // its top-level await is pending (what streamed discovery does with a slow disk).
      const released = new Promise<void>((resolve) => {
        (globalThis as { __tooldockDiscoveryGateRelease?: () => void }).__tooldockDiscoveryGateRelease =
          resolve;
      });
      try {
        const result = await loadCustomTools({
          paths: [join(dir, "a-tamper.ts"), more],
          cwd: dir,
          cacheDir,
          compiler,
          fileSystem: {
            ...nodeDiscoveryFileSystem,
            readdir: async (path) => {
              if (path === more) await released;
              return nodeDiscoveryFileSystem.readdir(path);
            },
          },
        });
        expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([]);
        expect(result.tools.map((loaded) => loaded.tool.name)).toEqual(["tamper", "tool_b", "tool_c"]);
      } finally {
        delete (globalThis as { __tooldockDiscoveryGateRelease?: () => void }).__tooldockDiscoveryGateRelease;
      }
    });
  },
);
