import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { Session } from "../session.js";
import type { SessionEvent } from "../session-events.js";
import { reportStrayFault } from "./stray-faults.js";
import { trackToolCalls } from "./tool-call-scope.js";

// A process handler runs in the async context of the throw (Node 20: checked by the CLI's end
// to end tests, which throw for real); here the report is made from a timer the tool started,
// which is that context, without ending the test process.
describe("reportStrayFault", () => {
  it("names the call whose left-running code threw, and its session emits tool-call-fault", async () => {
    trackToolCalls();
    const session = new Session();
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    let reported: ReturnType<typeof reportStrayFault>;
    let later!: Promise<void>;
    session.register({
      name: "leaves_timer",
      label: "Leaves a timer",
      description: "Returns, then its timer fails.",
      parameters: Type.Object({}),
      async execute() {
        later = new Promise((resolve) =>
          setTimeout(() => {
            reported = reportStrayFault("uncaught exception", new Error("late"));
            resolve();
          }, 1),
        );
        return { content: [{ type: "text", text: "returned" }] };
      },
    });
    const result = await session.execute({ toolCallId: "c9", name: "leaves_timer", params: {} });
    expect(result.isError).toBeFalsy();
    await later;
    expect(reported).toEqual({ sessionId: session.id, toolCallId: "c9", toolName: "leaves_timer" });
    const faults = events.filter((event) => event.type === "tool-call-fault");
    expect(faults).toEqual([
      expect.objectContaining({ toolCallId: "c9", name: "leaves_timer", fault: "stray-exception" }),
    ]);
    expect(reportStrayFault("unhandled rejection", new Error("host's own"))).toBeUndefined();
  });
});
