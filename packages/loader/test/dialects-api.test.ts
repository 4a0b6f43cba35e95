import { join } from "node:path";
import type { AgentToolResult } from "@tooldock/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type CompilerName,
  checkSessionHooks,
  TOOL_MESSAGE_CHANNEL,
  type ToolMessageEvent,
} from "../src/index.js";
import { createToolHarness, type ToolHarness, type ToolHarnessOptions } from "../src/testing/index.js";
import { fixturesDir, testCacheDir } from "./helpers.js";

/**
 * Modules written in the dialects of pi, oh-my-pi and xcsh (issue 14, items 5–8): the older
 * execute order, the rest of pi's API (events, sendMessage, logger.time, the conversation on
 * the context, onSession's event), code that runs after a call returned, and factories that
 * return nothing when unconfigured. Each fixture is loaded, validated and called on both
 * compilers, with no package of those hosts installed.
 */
const compilers: CompilerName[] = ["esbuild", "jiti"];
const dialects = join(fixturesDir, "dialects");

describe.each(compilers)("pi's API in modules written for other hosts, compiler %s", (compiler) => {
  const cacheDir = testCacheDir(`dialects-api-${compiler}`);
  let harness: ToolHarness | undefined;
  afterEach(async () => {
    vi.unstubAllEnvs();
    await harness?.dispose();
    harness = undefined;
  });
  const load = async (path: string, options: Partial<ToolHarnessOptions> = {}) => {
    harness = await createToolHarness({
      paths: join(dialects, path),
      cwd: fixturesDir,
      compiler,
      cacheDir,
      ...options,
    });
    return harness;
  };
  const text = (result: { content: unknown[] }) =>
    result.content.map((block) => (block as { text?: string }).text ?? "").join("");

  it("pi: execute(toolCallId, params, signal, onUpdate) gets its signal and onUpdate, with one W_LEGACY_EXECUTE_ORDER", async () => {
    const h = await load("pi/api/legacy-execute-order.ts");
    expect(h.diagnostics.map(({ code, severity, toolName }) => ({ code, severity, toolName }))).toEqual([
      { code: "W_LEGACY_EXECUTE_ORDER", severity: "warning", toolName: "pi_countdown" },
    ]);
    expect(h.diagnostics[0]?.message).toContain("execute(toolCallId, params, signal, onUpdate)");
    const updates: AgentToolResult[] = [];
    const result = await h.session.execute({
      toolCallId: "c1",
      name: "pi_countdown",
      params: { from: 3 },
      onUpdate: (partial) => updates.push(partial),
    });
    expect(text(result)).toBe("3 2 1 liftoff (c1)");
    expect(updates.length).toBeGreaterThan(0);
    expect((await h.call("pi_countdown", { from: 9 })).isError).toBe(true); // validated
  });

  it("xcsh: an arrow execute with _signal third gets the context fifth", async () => {
    const h = await load("xcsh/api/legacy-execute-order.ts");
    expect(h.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["W_LEGACY_EXECUTE_ORDER"]);
    expect(text(await h.call("xcsh_echo", { text: "hi", mode: "upper" }))).toBe("HI (cwd known: true)");
  });

  it("a tool written for the current order is not adapted (no warning)", async () => {
    const h = await load("pi/api/events-and-session.ts");
    expect(h.diagnostics.map((diagnostic) => diagnostic.code)).not.toContain("W_LEGACY_EXECUTE_ORDER");
  });

  it.each([
    [
      "xcsh/api/unconfigured-api-key.ts",
      "undefined",
      "TOOLDOCK_DIALECT_WEATHER_KEY",
      "xcsh_weather",
      { city: "Oslo" },
    ],
    ["oh-my-pi/api/unconfigured-null.ts", "null", "TOOLDOCK_DIALECT_TRACKER_TOKEN", "omp_tracker", { id: 7 }],
    ["pi/api/unconfigured-empty.ts", "an empty list", "TOOLDOCK_DIALECT_SERVICES", "pi_ping_db", {}],
  ])(
    "%s: unconfigured, a W_NO_TOOLS warning saying the factory returned %s; configured, it works",
    async (path, returned, variable, name, params) => {
      vi.stubEnv(variable, "");
      const unconfigured = await load(path);
      expect(unconfigured.tools).toEqual([]);
      expect(unconfigured.diagnostics).toHaveLength(1);
      const [warning] = unconfigured.diagnostics;
      expect(warning).toMatchObject({ code: "W_NO_TOOLS", severity: "warning" });
      expect(warning?.message).toContain(`returned no tools (${returned})`);
      expect(warning?.message).not.toMatch(/Entry 0|is null|not a tool/);
      expect(warning?.hint).toContain("API key");
      await unconfigured.dispose();
      harness = undefined;

      vi.stubEnv(variable, variable === "TOOLDOCK_DIALECT_SERVICES" ? "db" : "secret");
      const configured = await load(path);
      expect(configured.diagnostics).toEqual([]);
      const result = await configured.call(name, params);
      expect(result.isError).toBeFalsy();
      expect(text(result)).toMatch(/sunny in Oslo|issue 7: open|db: pong/);
    },
  );

  it("pi: events, sendMessage, logger.time, the conversation on the context and onSession's entries", async () => {
    const debug: string[] = [];
    const logger = { debug: (message: string) => debug.push(message), info() {}, warn() {}, error() {} };
    const entries = [
      { type: "message", message: { role: "user", content: "remember milk" } },
      {
        type: "message",
        message: { role: "toolResult", toolName: "pi_notes", details: { notes: ["milk"] } },
      },
    ];
    const h = await load("pi/api/events-and-session.ts", {
      logger,
      session: {
        conversation: {
          entries: () => entries,
          sessionFile: () => "/sessions/a.jsonl",
          model: () => ({ provider: "anthropic", id: "model-x" }),
        },
      },
    });
    expect(h.diagnostics).toEqual([]);
    const changed: unknown[] = [];
    const messages: ToolMessageEvent[] = [];
    h.host.events.on("pi_notes:changed", (data) => changed.push(data));
    h.host.events.on(TOOL_MESSAGE_CHANNEL, (data) => messages.push(data as ToolMessageEvent));
    h.host.events.emit("pi_notes:ping", { from: "host" });

    const result = await h.call("pi_notes", { action: "add", text: "eggs" });
    expect(text(result)).toBe(
      "notes=milk|eggs entries=2 file=/sessions/a.jsonl model=model-x idle=false queued=false " +
        "session=start:/sessions/a.jsonl:no previous heard=host",
    );
    expect(changed).toEqual([{ count: 2 }]);
    expect(messages).toEqual([
      {
        message: { customType: "pi_notes", content: "notes: 2", display: true },
        options: { triggerTurn: false },
        sessionId: h.session.id,
        toolCallId: "harness-call-1",
        toolName: "pi_notes",
      },
    ]);
    expect(debug.some((line) => /^pi_notes: \d+(\.\d+)? ms$/.test(line))).toBe(true);
    expect(debug.some((line) => /^pi_notes:entries: \d+(\.\d+)? ms$/.test(line))).toBe(true);
    expect((await h.call("pi_notes", { action: "drop" })).isError).toBe(true);
  });

  it("oh-my-pi: a throwing onSession is a W_ON_SESSION_FAILED warning; the tool still works", async () => {
    const h = await load("oh-my-pi/api/on-session-throws.ts");
    expect(h.diagnostics.map(({ code, severity, toolName }) => ({ code, severity, toolName }))).toEqual([
      { code: "W_ON_SESSION_FAILED", severity: "warning", toolName: "omp_restore" },
    ]);
    expect(h.diagnostics[0]?.message).toContain('"start" event: no saved state for this session');
    expect(text(await h.call("omp_restore", {}))).toBe("restored: false");
    // What `tooldock list` and `validate` run: the hooks once, in a session of their own.
    const checked = await checkSessionHooks(h.tools, { cwd: fixturesDir });
    expect(checked.map((diagnostic) => diagnostic.code)).toEqual(["W_ON_SESSION_FAILED"]);
  });

  it("pi: a close handler that runs after the call returned finds pi.events and reaches the host", async () => {
    const h = await load("pi/api/after-call-close-handler.ts");
    expect(h.diagnostics).toEqual([]);
    const done = new Promise<unknown>((resolve) => h.host.events.on("pi_background:done", resolve));
    expect(text(await h.call("pi_background", { crash: false }))).toBe("started");
    expect(await done).toEqual({ toolCallId: "harness-call-1", code: 0 });
  });
});
