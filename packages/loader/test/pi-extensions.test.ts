import { join } from "node:path";
import type { UIContext } from "@tooldock/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { CompilerName } from "../src/index.js";
import { createToolHarness, type ToolHarness, type ToolHarnessOptions } from "../src/testing/index.js";
import { fixturesDir, testCacheDir } from "./helpers.js";

/**
 * pi extensions (issue 26, item 1): modules whose default export registers tools through pi's
 * `ExtensionAPI` instead of returning them. Our own fixtures under
 * `fixtures/dialects/pi-extensions/`, each loaded, validated and called on both compilers, in
 * process and in a tool host.
 */
const compilers: CompilerName[] = ["esbuild", "jiti"];
const modes = ["none", "process"] as const;
const extensions = join(fixturesDir, "dialects", "pi-extensions");

describe.each(compilers.flatMap((compiler) => modes.map((mode) => [compiler, mode] as const)))(
  "pi extensions, compiler %s, isolation %s",
  (compiler, isolation) => {
    const cacheDir = testCacheDir(`pi-extensions-${compiler}-${isolation}`);
    let harness: ToolHarness | undefined;
    afterEach(async () => {
      await harness?.dispose();
      harness = undefined;
    });
    const load = async (file: string, ui?: UIContext, session?: ToolHarnessOptions["session"]) => {
      harness = await createToolHarness({
        paths: join(extensions, file),
        cwd: fixturesDir,
        compiler,
        cacheDir,
        isolation,
        ui,
        session,
      });
      return harness;
    };
    const text = (result: { content: unknown[] }) =>
      result.content.map((block) => (block as { text?: string }).text ?? "").join("");

    it("registerTool: every registered tool loads and runs with pi's argument order; session_start ran once", async () => {
      const h = await load("notes-extension.ts");
      expect(h.diagnostics).toEqual([]);
      expect(h.tools.map((loaded) => loaded.tool.name)).toEqual(["ext_note_add", "ext_note_list"]);
      expect(text(await h.call("ext_note_add", { text: "milk" }))).toBe("1 note(s)");
      expect(text(await h.call("ext_note_list", {}))).toBe("milk|starts=1|cwd=true");
      const bad = await h.call("ext_note_add", { text: "" });
      expect(bad.isError).toBe(true);
    });

    it("tools registered in session_start load: the handler runs once at load", async () => {
      const h = await load("tools-at-start.ts");
      expect(h.diagnostics).toEqual([]);
      expect(text(await h.call("ext_greet", { name: "Ada" }))).toBe("hello from a folder, Ada");
    });

    it("the tools' context has the rest of pi's ExtensionContext: a model registry of the host's model, no key", async () => {
      const h = await load("context-fields.ts", undefined, {
        conversation: { model: () => ({ provider: "anthropic", id: "claude-x" }) },
      });
      expect(h.diagnostics).toEqual([]);
      expect(text(await h.call("ext_context", {}))).toBe(
        "models=claude-x found=claude-x key=none pending=false",
      );
    });

    it("the tools' context has pi's ui and hasUI, answered by the host's UI, in either argument order", async () => {
      const asked: string[] = [];
      const ui: UIContext = {
        select: async (title, options) => {
          asked.push(title);
          return options[1];
        },
        confirm: async (_title, message) => {
          asked.push(message);
          return true;
        },
        input: async () => undefined,
        notify: () => {},
      };
      const h = await load("ui-in-context.ts", ui);
      expect(h.diagnostics).toEqual([]);
      expect(text(await h.call("ext_confirm", { question: "Deploy?" }))).toBe("confirmed");
      expect(text(await h.call("ext_pick", {}))).toBe("picked b");
      expect(asked).toEqual(["Deploy?", "Pick one"]);
    });

    it('a package whose "pi.extensions" lists its extension: that one loads, its helpers and scripts are never imported', async () => {
      const h = await load("extension-package");
      expect(h.diagnostics).toEqual([]);
      expect(h.tools.map((loaded) => loaded.tool.name)).toEqual(["ext_shout"]);
      expect(text(await h.call("ext_shout", { text: "hey" }))).toBe("HEY!");
    });

    it("a session_start handler that throws at load is E_FACTORY_THROW naming the handler", async () => {
      const h = await load("start-throws.ts");
      expect(h.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["E_FACTORY_THROW"]);
      expect(h.diagnostics[0]?.message).toContain("session_start handler");
      expect(h.diagnostics[0]?.message).toContain("settings file missing");
      expect(h.tools).toEqual([]);
    });

    it("an extension written against pi 0.58.3: truncation helpers, context budget, leaf, a dialog with a deadline", async () => {
      const away: UIContext = {
        select: () => new Promise(() => {}),
        confirm: () => new Promise(() => {}),
        input: () => new Promise(() => {}),
        notify: () => {},
      };
      const h = await load("current-api.ts", away, {
        conversation: { entries: () => [{ type: "message", id: "m1", parentId: null }] },
      });
      expect(h.diagnostics).toEqual([]);
      const result = await h.call("ext_digest", { text: "a\nb\nc", maxLines: 2 });
      expect(text(result)).toBe("a|b kept=2/3 size=3B usage=unknown leaf=m1 asked=false settings=true");
      expect(result.details).toEqual({ truncated: true });
    });

    it("commands, shortcuts, flags and agent events are accepted, one W_EXTENSION_FEATURE each; the tool loads", async () => {
      const h = await load("commands-and-events.ts");
      expect(
        h.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message.match(/uses (\S+)/)?.[1]]),
      ).toEqual([
        ["W_EXTENSION_FEATURE", "pi.registerFlag"],
        ["W_EXTENSION_FEATURE", "pi.registerCommand"],
        ["W_EXTENSION_FEATURE", "pi.registerShortcut"],
        ["W_EXTENSION_FEATURE", 'pi.on("tool_call")'],
        ["W_EXTENSION_FEATURE", 'pi.on("agent_start")'],
      ]);
      expect(h.diagnostics[0]?.severity).toBe("warning");
      expect(text(await h.call("ext_count", { text: "one two three" }))).toBe("3");
    });
  },
);
