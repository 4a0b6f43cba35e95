import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { goodModule, testCacheDir } from "../helpers.js";

// Bug: the exit guard replaced only `process.exit`. A module that called
// `process.reallyExit(0)` (what `process.exit` calls underneath) at import ended
// `tooldock validate` with exit code 0 and no output: CI went green. `process.abort()` and
// `process.kill(process.pid, …)` went through the same way. Each is now blocked and reported
// as E_PROCESS_EXIT, like `process.exit`.

const HOSTILE: Record<string, string> = {
  "really-exit.ts": "(process as any).reallyExit(0);\nexport default () => [];\n",
  "abort.ts": "export default () => {\n  process.abort();\n  return [];\n};\n",
  "kill-self.ts": "process.kill(process.pid);\nexport default () => [];\n",
  "kill-group.ts": 'export default () => {\n  process.kill(0, "SIGKILL");\n  return [];\n};\n',
  "raw-kill.ts": "(process as any)._kill(process.pid, 9);\nexport default () => [];\n",
  "kill-later.ts": 'setTimeout(() => process.kill(process.pid, "SIGTERM"), 0);\nexport default () => [];\n',
};

const EXPECTED: Record<string, string> = {
  "abort.ts": "called process.abort() in its factory",
  "kill-group.ts": 'called process.kill(0, "SIGKILL") in its factory',
  "kill-later.ts": `called process.kill(${process.pid}, "SIGTERM") from a timer or callback`,
  "kill-self.ts": `called process.kill(${process.pid}) while it was imported`,
  "raw-kill.ts": `called process._kill(${process.pid}, 9) while it was imported`,
  "really-exit.ts": "called process.reallyExit(0) while it was imported",
};

type Method = "reallyExit" | "abort" | "_kill";
const METHODS: readonly Method[] = ["reallyExit", "abort", "_kill"];
const internals = process as unknown as Record<Method, (...args: unknown[]) => unknown>;

describe.each<CompilerName>(["esbuild", "jiti"])(
  "modules that end the process another way (%s)",
  (compiler) => {
    let dir: string;
    const saved: Partial<Record<Method, unknown>> = {};
    /** Calls that got past the guard: recorded by stand-ins instead of ending the test worker. */
    let escaped: string[];

    beforeEach(() => {
      dir = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-exit-")));
      for (const [file, source] of Object.entries(HOSTILE)) writeFileSync(join(dir, file), source);
      writeFileSync(join(dir, "zz-good.ts"), goodModule("still_loaded"));
      escaped = [];
      for (const method of METHODS) {
        saved[method] = internals[method];
        internals[method] = (...args: unknown[]) => {
          escaped.push(`${method}(${args.map(String).join(", ")})`);
          return 0;
        };
      }
    });
    afterEach(() => {
      for (const method of METHODS) internals[method] = saved[method] as never;
      rmSync(dir, { recursive: true, force: true });
    });

    it("reports each as E_PROCESS_EXIT, lets none through, and loads the other modules", async () => {
      const stand_ins = METHODS.map((method) => internals[method]);
      const result = await loadCustomTools({
        paths: [dir],
        cwd: dir,
        compiler,
        cacheDir: testCacheDir(`really-exit-${compiler}`),
      });
      expect(escaped).toEqual([]);
      expect(result.tools.map((loaded) => loaded.tool.name)).toEqual(["still_loaded"]);
      const reported = Object.fromEntries(
        result.diagnostics.map((diagnostic) => [
          diagnostic.path.slice(dir.length + 1),
          `${diagnostic.code} ${diagnostic.message}`,
        ]),
      );
      expect(Object.keys(reported).sort()).toEqual(Object.keys(EXPECTED));
      for (const [file, text] of Object.entries(EXPECTED)) {
        expect(reported[file]).toContain("E_PROCESS_EXIT");
        expect(reported[file]).toContain(text);
      }
      // The guard is off again: the methods are what they were before the load.
      expect(METHODS.map((method) => internals[method])).toEqual(stand_ins);
    });
  },
);
