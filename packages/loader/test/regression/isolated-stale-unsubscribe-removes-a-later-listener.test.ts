// Found by a second read of the fix for a stale unsubscribe (83941c5): the bug it fixed in
// Session.subscribe and PendingActionStore.subscribe was left in IsolatedToolHost.subscribe
// (docs/contract.md lists it next to them): a remover called again late removed a later
// subscription of the same listener.
import { describe, expect, it } from "vitest";
import { load, project } from "../isolation/isolation-helpers.js";

const TOOL = `
import { Type } from "@sinclair/typebox";
export default () => ({ name: "t", label: "T", description: "d", parameters: Type.Object({}),
  async execute() { return { content: [] }; } });
`;

describe("IsolatedToolHost.subscribe", () => {
  it("a remover called again after the listener subscribed anew leaves the new subscription", async () => {
    const where = await project({ "t.ts": TOOL });
    const { isolated } = await load(where, "process");
    if (isolated === undefined) throw new Error("no tool host");
    const seen: string[] = [];
    const listener = (event: { type: string }) => seen.push(event.type);
    const first = isolated.subscribe(listener);
    first();
    isolated.subscribe(listener);
    first(); // late, again (a cleanup in a finally)
    await isolated.close();
    expect(seen).toEqual(["tool-host-stopped"]);
  });
});
