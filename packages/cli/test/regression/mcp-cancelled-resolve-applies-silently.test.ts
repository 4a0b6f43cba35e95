// Attack: an MCP client cancels a `resolve` (notifications/cancelled) while the action's apply
// runs. The server stopped waiting at once, the client was told nothing more (a cancelled
// request gets no response), and the apply went on and made the change: a silent completion.
// Now the apply runs to the end and the client gets a log entry naming the action and saying
// what became of it.

import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolHost } from "@tooldock/loader";
import { Session } from "@tooldock/runtime";
import { defineTool, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { connectInMemory } from "../mcp-in-memory.js";

const { Type } = new ToolHost().createAPI().typebox;

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Stages "Change a"; its apply says it started, then waits for `release` and marks `state.applied`. */
function slowApplyTool(
  started: ReturnType<typeof gate>,
  release: Promise<void>,
  state: { applied: boolean },
) {
  return defineTool({
    name: "stage",
    label: "Stage",
    description: "Stages a change whose apply is slow.",
    deferrable: true,
    parameters: Type.Object({}),
    async execute(_id, _params, _onUpdate, ctx) {
      ctx.pushPendingAction({
        label: "Change a",
        apply: async () => {
          started.open();
          await release;
          state.applied = true;
          return textResult("Changed a");
        },
      });
      return textResult("Preview: change a");
    },
  });
}

describe("mcp: a cancelled resolve", () => {
  it("is never a silent completion: the apply finishes and the client is told which action, in a log entry", async () => {
    const started = gate();
    const release = gate();
    const state = { applied: false };
    const session = new Session({ cwd: process.cwd() });
    session.register(slowApplyTool(started, release.opened, state), "test");
    const { client } = await connectInMemory(session);
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(String(notification.params.data));
    });
    await client.callTool({ name: "stage", arguments: {} });

    const cancel = new AbortController();
    const resolving = client.callTool(
      { name: "resolve", arguments: { action: "apply", reason: "go" } },
      undefined,
      { signal: cancel.signal },
    );
    await started.opened;
    cancel.abort("the user pressed stop");
    await expect(resolving).rejects.toThrow();
    release.open();

    await expect.poll(() => logs.join("\n")).toContain('the apply of pending action "Change a"');
    const log = logs.find((text) => text.includes("Change a")) ?? "";
    expect(log).toContain("resolve was cancelled by the client");
    expect(log).toContain("it finished: Changed a");
    expect(state.applied).toBe(true);
    expect(session.pending.size).toBe(0);
  });

  it("a cancelled call that had staged an action says so in the log: the action stays pending", async () => {
    const staged = gate();
    const session = new Session({ cwd: process.cwd() });
    session.register(
      defineTool({
        name: "stage_then_hang",
        label: "Stage then hang",
        description: "Stages a change, then never returns.",
        deferrable: true,
        parameters: Type.Object({}),
        async execute(_id, _params, _onUpdate, ctx) {
          ctx.pushPendingAction({ label: "Change b", apply: async () => textResult("Changed b") });
          staged.open();
          return new Promise(() => {});
        },
      }),
      "test",
    );
    const { client } = await connectInMemory(session);
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(String(notification.params.data));
    });
    const cancel = new AbortController();
    const calling = client.callTool({ name: "stage_then_hang", arguments: {} }, undefined, {
      signal: cancel.signal,
    });
    await staged.opened;
    cancel.abort();
    await expect(calling).rejects.toThrow();
    await expect
      .poll(() => logs.join("\n"))
      .toContain('The cancelled call of "stage_then_hang" had already staged');
    expect(logs.join("\n")).toContain("Change b");
    expect(session.pending.list().map((record) => record.label)).toEqual(["Change b"]);
  });

  it("a resolve with nothing to act on logs nothing when cancelled", async () => {
    const session = new Session({ cwd: process.cwd() });
    session.register(slowApplyTool(gate(), Promise.resolve(), { applied: false }), "test");
    const { client } = await connectInMemory(session, { resolve: "always" });
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(String(notification.params.data));
    });
    const cancel = new AbortController();
    const resolving = client.callTool(
      { name: "resolve", arguments: { action: "apply", reason: "go" } },
      undefined,
      { signal: cancel.signal },
    );
    cancel.abort();
    await expect(resolving).rejects.toThrow();
    // A later call's answer comes after anything the cancelled one sent.
    await client.callTool({ name: "stage", arguments: {} });
    expect(logs).toEqual([]);
  });
});
