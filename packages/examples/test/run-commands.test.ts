import { existsSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { createToolHarness, type ToolHarness } from "@tooldock/loader/testing";
import type { AgentToolResult } from "@tooldock/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir, textOf } from "./temp-dir.js";

const tool = fileURLToPath(new URL("../tools/run-commands.ts", import.meta.url));
const node = (script: string) => ({ command: process.execPath, args: ["-e", script] });

describe("run_commands (onUpdate and signal)", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let harness: ToolHarness;

  beforeEach(async () => {
    dir = await tempDir();
    harness = await createToolHarness({ paths: tool, cwd: dir.path });
  });

  afterEach(async () => {
    await harness.dispose();
    await dir.remove();
  });

  const run = (
    commands: unknown[],
    options: { signal?: AbortSignal; onUpdate?: (partial: AgentToolResult) => void } = {},
  ) =>
    harness.session.execute({
      toolCallId: "t1",
      name: "run_commands",
      params: { commands, timeoutMs: 60_000 },
      ...options,
    });

  it("streams one update per command and succeeds when all do", async () => {
    const updates: string[] = [];
    const result = await run([node("console.log(1)"), node("console.log(2)")], {
      onUpdate: (partial) => updates.push(textOf(partial)),
    });
    expect(result.isError).toBeFalsy();
    expect(updates).toHaveLength(2);
    expect(updates[0]).toMatch(/^\[1\/2\] ok: /);
    expect(updates[1]).toMatch(/^\[2\/2\] ok: /);
  });

  it("stops at the first failure and reports the exit code", async () => {
    const result = await run([node("process.exit(3)"), node("require('fs').writeFileSync('never', '')")]);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("exited with 3; 1 later command did not run");
    expect(existsSync(join(dir.path, "never"))).toBe(false);
  });

  it("kills the running command when the call is aborted, and starts no other", async () => {
    const controller = new AbortController();
    const started = join(dir.path, "started");
    const pending = run(
      [
        node("require('fs').writeFileSync('started', ''); setInterval(() => {}, 1000)"),
        node("require('fs').writeFileSync('never', '')"),
      ],
      { signal: controller.signal },
    );
    while (!existsSync(started)) await sleep(20);
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(existsSync(join(dir.path, "never"))).toBe(false);
  });
});
