// Attack: a tool returns a result (or throws a message) longer than an event log line holds.
// The log line's detail was cut at 4,000 characters twice, once when the session event became
// a line and again by the event hub, so the line said "… [13 more]" (the length of the first
// cut's own marker) instead of how much of the result was left out. Fix: the event hub is the
// one place that cuts; a session event's line carries the whole text.
import type { SessionEvent } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { EventHub } from "../../src/inspect/event-hub.js";
import { logLineOf } from "../../src/inspect/session-log.js";

function logged(event: SessionEvent) {
  const hub = new EventHub();
  const line = logLineOf(event);
  if (line === undefined) throw new Error("no log line");
  const entry = hub.log(line.kind, line.summary, line.detail);
  hub.close();
  return entry;
}

describe("regression: a long result in the event log", () => {
  it("says how much of the result was left out", () => {
    const entry = logged({
      type: "tool-call-end",
      toolCallId: "c1",
      name: "big",
      result: { content: [{ type: "text", text: "r".repeat(5_000) }] },
    } as SessionEvent);
    expect(entry.detail).toBe(`${"r".repeat(4_000)}… [1000 more]`);
  });

  it("says how much of a failed apply's message was left out", () => {
    const entry = logged({
      type: "action-apply-failed",
      record: { id: "a1", label: "write", sourceToolName: "big" },
      error: new Error("e".repeat(6_000)),
    } as SessionEvent);
    expect(entry.detail).toBe(`${"e".repeat(4_000)}… [2000 more]`);
  });
});
