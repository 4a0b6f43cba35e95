// Found while folding `IsolatedToolHost.subscribe` into the runtime's listener set: a host's
// async listener (`isolated.subscribe(async (event) => { await log(event) })`) whose promise
// rejected left an unhandled rejection in the host's process (which ends it, under Node's
// default), where a throwing listener was contained. Both are the listener's own fault now.
import { describe, expect, it } from "vitest";
import { load, project } from "../isolation/isolation-helpers.js";

const TOOL = `
export default () => ({
  name: "echo",
  label: "Echo",
  description: "Echoes",
  parameters: { type: "object", properties: {} },
  async execute() { return { content: [{ type: "text", text: "ok" }] }; },
});
`;

describe("a host's listener of the tool host that rejects", () => {
  it("leaves no unhandled rejection, and the other listeners hear the event", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const where = await project({ "echo.ts": TOOL });
      const { isolated } = await load(where, "process");
      if (isolated === undefined) throw new Error("no tool host");
      isolated.subscribe(async () => {
        throw new Error("the host's log is down");
      });
      const heard = new Promise<string>((resolve) => {
        isolated.subscribe((event) => resolve(event.type));
      });
      await isolated.close();
      expect(await heard).toBe("tool-host-stopped");
      // Rejections are reported after the microtasks of the turn they happened in.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
