import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { loadCustomTools, ToolHost } from "../../src/index.js";
import { testCacheDir } from "../helpers.js";

// The attack (issue 13, part 1): a chat server with one ToolHost and two conversations. A
// tool called in conversation A staged its action with `pi.pushPendingAction`, which read the
// host's single "active session": the action landed in conversation B. A's model was told
// "staged" with nothing pending in A, and B's model was forced to `resolve` A's action.
//
// The module waits before it stages, so the two calls overlap as they do on a real server.
const MODULE = `export default (pi) => ({
  name: "rename",
  label: "Rename",
  description: "Previews a rename.",
  parameters: pi.typebox.Type.Object({ to: pi.typebox.Type.String(), waitMs: pi.typebox.Type.Number() }),
  async execute(_id, params) {
    await new Promise((resolve) => setTimeout(resolve, params.waitMs));
    pi.pushPendingAction({
      label: "Rename to " + params.to,
      apply: async () => ({ content: [{ type: "text", text: "renamed" }] }),
    });
    return { content: [{ type: "text", text: "Staged: rename to " + params.to }] };
  },
});
`;

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describe("an action staged in the wrong conversation", () => {
  it("lands in the session whose call staged it, never in the host's active session", async () => {
    const root = testCacheDir("regression-wrong-conversation");
    roots.push(root);
    const tools = join(root, "tools");
    await mkdir(tools, { recursive: true });
    await writeFile(join(tools, "rename.mjs"), MODULE);
    const host = new ToolHost({ cwd: root });
    const a = new Session({ cwd: root, sessionId: "conversation-A" });
    const b = new Session({ cwd: root, sessionId: "conversation-B" });
    const loaded = await loadCustomTools({ paths: [tools], cwd: root, cacheDir: join(root, "cache"), host });
    await loaded.cached; // written after the load on Node 22.15+: before the folder goes
    expect(loaded.diagnostics).toEqual([]);
    for (const { tool, path } of loaded.tools) {
      a.register(tool, path);
      b.register(tool, path);
    }
    // The server's last conversation to load or run is B, as setActiveSession left it.
    host.setActiveSession(b);

    const [inA, inB] = await Promise.all([
      a.execute({ toolCallId: "a1", name: "rename", params: { to: "a.txt", waitMs: 20 } }),
      b.execute({ toolCallId: "b1", name: "rename", params: { to: "b.txt", waitMs: 1 } }),
    ]);
    expect(inA.isError).toBeFalsy();
    expect(inB.isError).toBeFalsy();
    expect(a.pending.list().map((record) => record.label)).toEqual(["Rename to a.txt"]);
    expect(b.pending.list().map((record) => record.label)).toEqual(["Rename to b.txt"]);

    // A alone, with B still the active session: A's action is A's.
    await a.pending.clear("next round");
    await a.execute({ toolCallId: "a2", name: "rename", params: { to: "c.txt", waitMs: 0 } });
    expect(a.pending.list().map((record) => record.label)).toEqual(["Rename to c.txt"]);
    expect(b.pending.list().map((record) => record.label)).toEqual(["Rename to b.txt"]);
    await Promise.all([a.dispose(), b.dispose()]);
  });
});
