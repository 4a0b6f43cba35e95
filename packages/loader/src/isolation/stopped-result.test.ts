import { describe, expect, it } from "vitest";
import { stoppedResult } from "./tool-host-process.js";

const text = (result: { content: Array<{ type: string; text?: string }> }) => result.content[0]?.text ?? "";

// Found by a bug hunt: a tool host the host closed on purpose (a reload, the session's end)
// made its tools answer "This is a fault in the tool … tell the user".
describe("stoppedResult", () => {
  it("blames the tool for a crash, and not for a close the host asked for", () => {
    const crashed = stoppedResult("report", { kind: "crash", reason: "It was killed by SIGKILL." });
    expect(crashed.isError).toBe(true);
    expect(text(crashed)).toContain("It was killed by SIGKILL. This is a fault in the tool");
    const closed = stoppedResult("report", { kind: "closed", reason: "The host closed it." });
    expect(text(closed)).toContain(
      "The host closed it. The host stopped it on purpose; this is no fault of the tool's.",
    );
    expect(text(closed)).not.toContain("This is a fault in the tool");
  });
});
