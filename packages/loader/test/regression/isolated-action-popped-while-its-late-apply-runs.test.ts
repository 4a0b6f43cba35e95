// Found by a second read of the fix for actions that left their stack: an action whose apply is
// still running in the tool host is left to the apply's own settling. But an apply that timed
// out is put back on the stack while it still runs; taken off then (pop(), remove(), a discard
// of an action without reject, clear()), and its late apply failing, it stayed staged ("a
// failed apply stays staged"): counted toward the cap for good, its closure kept in the tool
// host, a retired tool host kept open.
import { describe, expect, it } from "vitest";
import { ToolHost } from "../../src/index.js";
import { MAX_STAGED_ACTIONS } from "../../src/isolation/isolated-tools.js";
import { LATE_FAILING_STAGER, load, project, text } from "../isolation/isolation-helpers.js";

describe("a callback action taken off while its timed-out apply still runs", () => {
  it("no longer counts once its late apply failed", async () => {
    const where = await project({ "stager.ts": LATE_FAILING_STAGER });
    const host = new ToolHost({ cwd: where.work });
    const { session, isolated } = await load(
      where,
      "process",
      { host },
      { pendingPolicy: "allow", resolveTimeoutMs: 100 },
    );
    if (isolated === undefined) throw new Error("no tool host");
    const stops: string[] = [];
    isolated.subscribe((event) => {
      if (event.type === "tool-host-stopped") stops.push(event.reason);
    });
    const late = new Promise<void>((resolve) =>
      session.pending.subscribe((event) => {
        if (event.type === "action-settled-late") resolve();
      }),
    );
    await session.execute({ toolCallId: "s", name: "stager", params: { kind: "slow" } });
    const applied = await session.execute({
      toolCallId: "r",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(text(applied)).toMatch(/did not settle|timed out|within/i); // put back on the stack
    expect(session.pending.pop()?.label).toBe("slow"); // the host takes it off
    host.events.emit("fail"); // the late apply fails in the tool host
    await late;
    expect(session.pending.size).toBe(0);
    // Nothing is pending: MAX_STAGED_ACTIONS callback actions at once must be allowed.
    const result = await session.execute({
      toolCallId: "flood",
      name: "stager",
      params: { kind: "fast", times: MAX_STAGED_ACTIONS },
    });
    expect(text(result)).toBe("staged");
    expect(session.pending.size).toBe(MAX_STAGED_ACTIONS);
    expect(stops).toEqual([]);
  });
});
