// Found by a review: the tool host answered a session hook (`onSession`) of a tool it did not
// have with an empty success. A tool host started again after a crash loads its modules anew,
// and a module may no longer define a tool the host's session still has: the hook then never
// ran, and nothing said so, where a call of that tool fails with a message saying why.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Defines `hooked` (with an onSession hook) while the working folder's `mode.txt` says "on".
const FICKLE = `
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
export default (pi) => {
  const on = readFileSync(join(process.cwd(), "mode.txt"), "utf8") === "on";
  const exit = {
    name: "exit",
    label: "Exit",
    description: "Ends its tool host",
    parameters: Type.Object({}),
    async execute() { process.exit(3); },
  };
  if (!on) return [exit];
  return [exit, {
    name: "hooked",
    label: "Hooked",
    description: "Has a session hook",
    parameters: Type.Object({}),
    actions: { later: { async apply() { return { content: [{ type: "text", text: "applied" }] }; } } },
    async execute(id, params, onUpdate, ctx) {
      ctx.pushPendingAction({ label: "Later", handler: "later", payload: 1 });
      return { content: [{ type: "text", text: "ok" }] };
    },
    async onSession(event) { pi.events.emit("tool:session", event.reason); },
  }];
};
`;

describe("a session hook of a tool its restarted tool host no longer has", () => {
  it("fails, saying the tool host has no such tool", async () => {
    const where = await project({ "fickle.ts": FICKLE });
    await writeFile(join(where.work, "mode.txt"), "on");
    const { session } = await load(where, "process");
    await writeFile(join(where.work, "mode.txt"), "off");
    const exited = await session.execute({ toolCallId: "1", name: "exit", params: {} });
    expect(text(exited)).toMatch(/It exited with code 3\./);
    const failed: string[] = [];
    session.subscribe((event) => {
      if (event.type === "tool-hook-failed")
        failed.push(`${event.toolName}: ${String((event.error as Error).message)}`);
    });
    await session.start(); // the hook's request starts a fresh tool host, which has no "hooked"
    expect(failed).toEqual([expect.stringMatching(/^hooked: The tool host has no tool "hooked"/)]);
    // A call of it says the same.
    const called = await session.execute({ toolCallId: "2", name: "hooked", params: {} });
    expect(called.isError).toBe(true);
    expect(text(called)).toMatch(/The tool host has no tool "hooked"/);
  });

  it("fails a durable action it staged, saying the tool host has no such tool", async () => {
    const where = await project({ "fickle.ts": FICKLE });
    await writeFile(join(where.work, "mode.txt"), "on");
    const { session } = await load(where, "process", {}, { pendingPolicy: "allow" });
    await session.execute({ toolCallId: "1", name: "hooked", params: {} });
    expect(session.pending.size).toBe(1);
    await writeFile(join(where.work, "mode.txt"), "off");
    await session.execute({ toolCallId: "2", name: "exit", params: {} });
    const applied = await session.execute({
      toolCallId: "3",
      name: "resolve",
      params: { action: "apply", reason: "ok" },
    });
    expect(text(applied)).toMatch(/The tool host has no tool "hooked"/);
  });
});
