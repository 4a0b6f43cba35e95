import { describe, expect, it } from "vitest";
import { PendingActionStore, Session } from "../../src/index.js";
import { pendingIds } from "../../src/internal.js";

/**
 * Found by a second read of the tool host's cap: the tool host counts its durable actions
 * still pending by asking their store, and an action a resolve held off the stack at that
 * moment (its apply running) read as gone. It stopped counting for good, though a failed apply
 * puts it back: one more pending than the cap for each such resolve. `pendingIds` now lists it.
 */
describe("an action a resolve holds while its apply runs", () => {
  it("is still pending to whoever counts them, and back on the stack when the apply fails", async () => {
    let fail: (error: Error) => void = () => {};
    let applying: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      applying = resolve;
    });
    const store = new PendingActionStore();
    const record = store.push({
      label: "Write a.txt",
      apply: () =>
        new Promise((_resolve, reject) => {
          fail = reject;
          applying();
        }),
    });
    const session = new Session({ pending: store });
    const resolved = session.execute({
      toolCallId: "r1",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    await started;
    expect(store.list()).toEqual([]);
    expect(pendingIds(store)).toEqual(new Set([record.id]));
    fail(new Error("disk full"));
    expect((await resolved).isError).toBe(true);
    expect(pendingIds(store)).toEqual(new Set([record.id]));
    expect(store.list()).toEqual([record]);
    await session.dispose();
  });
});
