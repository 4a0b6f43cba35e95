import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { type LoadProgress, loadCustomTools, ToolHost } from "../src/index.js";
import { createToolHarness } from "../src/testing/index.js";
import { fixturesDir, rewritePaths, testCacheDir } from "./helpers.js";

const cacheDir = testCacheDir("session");

describe("loadCustomTools with a session", () => {
  it("registers the tools with their path as origin and makes the session active", async () => {
    const host = new ToolHost({ cwd: fixturesDir });
    const session = new Session({ cwd: fixturesDir });
    const { tools } = await loadCustomTools({
      paths: ["pending"],
      cwd: fixturesDir,
      host,
      session,
      cacheDir,
    });
    expect(tools.map((loaded) => loaded.tool.name)).toEqual(["stage_note"]);
    expect(session.get("stage_note")).toBe(tools[0]?.tool);
    expect(host.activeSession).toBe(session);

    const preview = await session.execute({ toolCallId: "1", name: "stage_note", params: { text: "hi" } });
    expect(preview.isError).toBeUndefined();
    expect(session.pending.list().map((record) => record.label)).toEqual(['Write note "hi"']);
    expect(session.toolChoice()).toEqual({ type: "tool", name: "resolve" });
  });

  it("pushes onto the session whose call runs, whichever session is active (issue 13)", async () => {
    const host = new ToolHost({ cwd: fixturesDir });
    const { tools } = await loadCustomTools({ paths: ["pending"], cwd: fixturesDir, host, cacheDir });
    const tool = tools[0]?.tool;
    if (tool === undefined) throw new Error("not loaded");
    // "allow": a session with a pending action still runs other calls, so each can run twice.
    const first = new Session({ cwd: fixturesDir, pendingPolicy: "allow" });
    const second = new Session({ cwd: fixturesDir, pendingPolicy: "allow" });
    first.register(tool, "pending/stage-note.ts");
    second.register(tool, "pending/stage-note.ts");

    // No active session at all: the call still stages onto its own session.
    await first.execute({ toolCallId: "0", name: "stage_note", params: { text: "own" } });
    host.setActiveSession(second);
    await first.execute({ toolCallId: "1", name: "stage_note", params: { text: "a" } });
    host.setActiveSession(first);
    await second.execute({ toolCallId: "2", name: "stage_note", params: { text: "b" } });
    expect(first.pending.list().map((record) => record.label)).toEqual([
      'Write note "a"',
      'Write note "own"',
    ]);
    expect(second.pending.list().map((record) => record.label)).toEqual(['Write note "b"']);
  });

  it("reports a name the session already holds as E_NAME_CONFLICT naming both origins", async () => {
    const session = new Session({ cwd: fixturesDir });
    const placeholder = {
      name: "shared_name",
      label: "Host tool",
      description: "Registered by the host first.",
      parameters: (await import("@sinclair/typebox")).Type.Object({}),
      execute: async () => ({ content: [] }),
    };
    session.register(placeholder, "host built-ins");
    const result = await loadCustomTools({
      paths: ["error-name-conflict/a-first.ts"],
      cwd: fixturesDir,
      session,
      cacheDir,
    });
    expect(result.tools).toEqual([]);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]?.code).toBe("E_NAME_CONFLICT");
    expect(result.diagnostics[0]?.message).toContain("host built-ins");
    expect(rewritePaths(result.diagnostics[0]?.message)).toContain("<cwd>/error-name-conflict/a-first.ts");
  });

  it("reports progress after each module", async () => {
    const progress: LoadProgress[] = [];
    await loadCustomTools({
      paths: ["error-import"],
      cwd: fixturesDir,
      cacheDir,
      onProgress: (event) => progress.push(event),
    });
    const seen = progress.map((event) => ({
      ...event,
      tools: event.tools.map(({ tool, path }) => ({ name: tool.name, path })),
    }));
    expect(rewritePaths(seen)).toEqual([
      {
        completed: 1,
        total: 2,
        module: { path: "<cwd>/error-import/canary.ts", resolvedPath: "<cwd>/error-import/canary.ts" },
        tools: [{ name: "canary_import", path: "<cwd>/error-import/canary.ts" }],
        diagnostics: 0,
      },
      {
        completed: 2,
        total: 2,
        module: {
          path: "<cwd>/error-import/throws-on-import.ts",
          resolvedPath: "<cwd>/error-import/throws-on-import.ts",
        },
        tools: [],
        diagnostics: 1,
      },
    ]);
  });
});

describe("createToolHarness", () => {
  it("loads a module into a fresh session and drives call, pending, resolve and dispose", async () => {
    const harness = await createToolHarness({ paths: "pending/stage-note.ts", cwd: fixturesDir, cacheDir });
    expect(harness.diagnostics).toEqual([]);
    expect(harness.tools.map((loaded) => loaded.path)).toEqual([join(fixturesDir, "pending/stage-note.ts")]);

    const preview = await harness.call("stage_note", { text: "draft" });
    expect(preview.content).toEqual([
      { type: "text", text: 'Preview: would write "draft". Call resolve to apply or discard.' },
    ]);
    expect(harness.pending.map((record) => [record.label, record.sourceToolName])).toEqual([
      ['Write note "draft"', "stage_note"],
    ]);

    const invalid = await harness.call("stage_note", { text: 42 });
    expect(invalid.isError).toBe(true);

    const applied = await harness.resolve("apply", "looks good");
    expect(applied.isError).toBeFalsy();
    expect(applied.content).toEqual([{ type: "text", text: 'Wrote "draft" (looks good)' }]);
    expect(harness.pending).toEqual([]);

    await harness.call("stage_note", { text: "second" });
    const discarded = await harness.resolve("discard", "not needed");
    expect(discarded.content).toEqual([
      { type: "text", text: 'Discarded: Write note "second". Reason: not needed' },
    ]);

    await harness.dispose();
    expect(harness.host.activeSession).toBeUndefined();
  });

  it("reports diagnostics instead of throwing", async () => {
    const harness = await createToolHarness({ paths: ["error-factory-throw"], cwd: fixturesDir, cacheDir });
    expect(harness.tools.map((loaded) => loaded.tool.name)).toEqual(["canary_factory_throw"]);
    expect(harness.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      "E_FACTORY_THROW",
      "E_FACTORY_THROW",
    ]);
    await harness.dispose();
  });
});
