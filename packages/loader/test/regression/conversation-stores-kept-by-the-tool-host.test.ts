// Found by a second read of the fix for actions that left their stack: the host subscribed to
// each store a tool host staged a callback action into and unsubscribed only on close(). A chat
// server loads its tools once and registers them in a Session per conversation: every
// conversation's store (and the session's registry it reaches) stayed reachable from the
// long-lived IsolatedToolHost after the conversation was disposed with nothing pending. Now a
// store is let go with the last action staged into it.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const STAGER = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "stager",
  label: "Stager",
  description: "Stages one callback action when asked",
  parameters: Type.Object({ stage: Type.Boolean() }),
  async execute(_id, { stage }, _onUpdate, ctx) {
    if (stage) ctx.pushPendingAction({ label: "callback", apply: async () => ({ content: [] }) });
    return { content: [{ type: "text", text: "done" }] };
  },
});
`;

async function conversationsCollected(stage: boolean): Promise<number> {
  const where = await project({ "stager.ts": STAGER });
  const { tools, isolated } = await load(where, "process", {}, { pendingPolicy: "allow" });
  const refs: WeakRef<object>[] = [];
  const conversation = async (n: number) => {
    const session = new Session({ sessionId: `chat-${n}`, cwd: where.work, pendingPolicy: "allow" });
    for (const { tool } of tools) session.register(tool);
    const result = await session.execute({ toolCallId: "a", name: "stager", params: { stage } });
    expect(text(result)).toBe("done");
    await session.dispose(); // rejects (discards) the action: nothing of it is pending
    expect(session.pending.size).toBe(0);
    refs.push(new WeakRef(session.pending));
  };
  for (let n = 0; n < 20; n += 1) await conversation(n);
  for (let round = 0; round < 20; round += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  expect(isolated?.pid).toBeDefined(); // the tool host serves on
  return refs.filter((ref) => ref.deref() === undefined).length;
}

describe("conversations closed while the tool host serves on", () => {
  it("that staged nothing: their stores are collected (control)", async () => {
    expect(await conversationsCollected(false)).toBe(20);
  });
  it("that staged a callback action: their stores are collected too", async () => {
    expect(await conversationsCollected(true)).toBe(20);
  });
});
