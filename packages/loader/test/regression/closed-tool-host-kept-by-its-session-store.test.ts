// Found by a second read of the fix for actions that left their stack: the host subscribes to
// each store a tool host stages into, and did not unsubscribe on close(). A long-lived session
// (a watch's: every reload makes a new IsolatedToolHost) kept every closed one reachable
// through its store's listeners.

import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { loadCustomTools } from "../../src/index.js";
import { project, text } from "../isolation/isolation-helpers.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const STAGER = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "stager",
  label: "Stager",
  description: "Stages one durable action",
  parameters: Type.Object({ stage: Type.Boolean() }),
  actions: { noop: { async apply() { return { content: [] }; } } },
  async execute(_id, { stage }, _onUpdate, ctx) {
    if (stage) ctx.pushPendingAction({ label: "durable", handler: "noop", payload: 1 });
    return { content: [{ type: "text", text: "done" }] };
  },
});
`;

async function closedHostCollected(stage: boolean): Promise<boolean> {
  const where = await project({ "stager.ts": STAGER });
  const session = new Session({ cwd: where.work, pendingPolicy: "allow" });
  const options = {
    paths: [where.tools],
    cwd: where.work,
    cacheDir: join(where.root, "cache"),
    session,
    isolation: "process" as const,
  };
  const firstLoad = async () => {
    const first = await loadCustomTools(options);
    const result = await session.execute({ toolCallId: "a", name: "stager", params: { stage } });
    expect(text(result)).toBe("done");
    if (stage) expect(session.pending.pop()?.label).toBe("durable"); // nothing pending any more
    const made = new WeakRef(first.isolated as object);
    await first.isolated?.close();
    await first.cached;
    return made;
  };
  const ref = await firstLoad();
  // A reload: the session's tools are now another tool host's.
  const second = await loadCustomTools(options);
  await second.cached;
  for (let round = 0; round < 20 && ref.deref() !== undefined; round += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  const collected = ref.deref() === undefined;
  await session.dispose();
  await second.isolated?.close();
  return collected;
}

describe("a closed tool host", () => {
  it("that staged nothing is collected (control)", async () => {
    expect(await closedHostCollected(false)).toBe(true);
  });
  it("that staged into the session's store is collected too", async () => {
    expect(await closedHostCollected(true)).toBe(true);
  });
});
