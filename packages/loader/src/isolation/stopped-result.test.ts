import { describe, expect, it } from "vitest";
import { failedStart, stoppedResult } from "./tool-host-process.js";

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

// What a failed start rejected with may be anything: each says what was thrown, in one sentence.
describe("failedStart", () => {
  it.each<[string, unknown, string]>([
    ["a string", "no binary", "It could not start: no binary."],
    ["undefined", undefined, "It could not start: undefined."],
    ["an Error without a message", new TypeError(), "It could not start: TypeError."],
    [
      "an Error whose message ends a sentence",
      new Error("spawn node ENOENT."),
      "It could not start: spawn node ENOENT.",
    ],
  ])("names %s", (_what, thrown, reason) => {
    expect(failedStart(thrown)).toEqual({ stop: { kind: "start", reason }, stderr: "" });
  });

  it("keeps the stop of a tool host that stopped while it loaded", () => {
    const stop = { kind: "exit", reason: "It exited with code 70." } as const;
    expect(failedStart(Object.assign(new Error(stop.reason), { stop, stderr: "why" }))).toEqual({
      stop,
      stderr: "why",
    });
  });
});
