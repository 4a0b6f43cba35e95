import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { testCacheDir } from "../helpers.js";

// Bug: when the batch ended, the tools of a module caught exiting from a timer were withdrawn
// by name, whoever held the name by then. A host that, on `onProgress`, had unregistered that
// tool and registered its own under the same name lost its own tool. Now the withdrawal, like
// the rest of a load's clean-up, unregisters only a name the session still says the module holds.

function toolSource(name: string, topLevel = ""): string {
  return `${topLevel}
export default (pi: any) => ({ name: "${name}", label: "${name}", description: "A tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: "ran ${name}" }] }; } });
`;
}

describe.each<CompilerName>(["esbuild", "jiti"])(
  "withdrawing a late-caught module's tools (%s)",
  (compiler) => {
    it("leaves alone a tool the host registered under that name meanwhile", async () => {
      const cacheDir = testCacheDir(`withdrawal-host-tool-${compiler}`);
      const dir = join(
        cacheDir,
        "..",
        `${compiler}-withdrawal-host-tool-${Math.random().toString(36).slice(2, 8)}`,
      );
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, "a-late.ts"), toolSource("search", "setTimeout(() => process.exit(9), 0);"));
      await writeFile(join(dir, "b.ts"), toolSource("tool_b"));
      const session = new Session({ cwd: dir });
      const hostSearch = {
        name: "search",
        label: "Search",
        description: "The host's own search.",
        parameters: Type.Object({}),
        async execute() {
          return { content: [{ type: "text" as const, text: "host search" }] };
        },
      };
      const result = await loadCustomTools({
        paths: [dir],
        cwd: dir,
        cacheDir,
        compiler,
        session,
        onProgress: ({ tools }) => {
          if (tools.some((loaded) => loaded.tool.name === "search")) {
            session.unregister("search"); // the host prefers its own search
            session.register(hostSearch, "host");
          }
        },
      });
      expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["E_PROCESS_EXIT"]);
      expect(session.get("search")?.description).toBe("The host's own search.");
      expect(session.originOf("search")).toBe("host");
      expect(result.changes.removed).not.toContain("search");
    });
  },
);
