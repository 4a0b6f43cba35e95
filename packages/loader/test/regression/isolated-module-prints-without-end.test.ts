import { afterEach, describe, expect, it, vi } from "vitest";
import {
  MAX_OUTPUT_CHARS,
  OUTPUT_TRUNCATED,
  OUTPUT_WINDOW_MS,
} from "../../src/isolation/tool-host-process.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by a review: a tool host forwarded everything it printed to `isolation.onOutput`, so a
// module that prints without end made the host pass all of it on (the CLI writes it to its
// stderr: a flooded terminal or CI log, and a slow stderr buffering it in the host's memory).
// Now one tool host forwards at most MAX_OUTPUT_CHARS a minute, then one notice, and drops the
// rest of that minute (a server's chatty module keeps its logs: the budget comes back).
// Written to descriptor 1, the output reaches the host in order with the results, so what the
// host got is all it will get once a result is in.
const FLOOD = `
import { writeSync } from "node:fs";
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "flood",
  label: "Flood",
  description: "Prints far beyond the output cap, then answers",
  parameters: Type.Object({ lines: Type.Number() }),
  async execute(id, { lines }) {
    const line = "x".repeat(999) + "\\n";
    for (let each = 0; each < lines; each += 1) {
      // The pipe is non-blocking: a full one says EAGAIN until the host has read it.
      for (let written = 0; written < line.length; ) {
        try {
          written += writeSync(1, line.slice(written));
        } catch (error) {
          if (error.code !== "EAGAIN") throw error;
        }
      }
    }
    return { content: [{ type: "text", text: "still works" }] };
  },
});
`;

afterEach(() => {
  vi.useRealTimers();
});

describe("an isolated module that prints without end", () => {
  it("gets at most the cap forwarded, one notice, and its tool still works", async () => {
    // Only the host's monotonic clock is faked (the budget's minute is counted on the host's side).
    vi.useFakeTimers({ toFake: ["performance"] });
    const where = await project({ "flood.ts": FLOOD });
    const chunks: string[] = [];
    const { session } = await load(where, { mode: "process", onOutput: (chunk) => chunks.push(chunk) });
    const lines = (3 * MAX_OUTPUT_CHARS) / 1000;
    const result = await session.execute({ toolCallId: "1", name: "flood", params: { lines } });
    expect(text(result)).toBe("still works");
    const output = chunks.join("");
    const notice = OUTPUT_TRUNCATED;
    expect(notice).toContain(`more than ${MAX_OUTPUT_CHARS} characters in a minute`);
    expect(output.length).toBeLessThanOrEqual(MAX_OUTPUT_CHARS + notice.length);
    expect(output.endsWith(notice)).toBe(true);
    expect(output).toBe(
      "x"
        .repeat(999)
        .concat("\n")
        .repeat(MAX_OUTPUT_CHARS / 1000) + notice,
    );
    // Its next call works too, and prints nothing more to the host.
    const again = await session.execute({ toolCallId: "2", name: "flood", params: { lines: 10 } });
    expect(text(again)).toBe("still works");
    expect(chunks.join("")).toBe(output);
    // A minute later it is heard again (a long-running server's module keeps its logs).
    vi.advanceTimersByTime(OUTPUT_WINDOW_MS);
    const later = await session.execute({ toolCallId: "3", name: "flood", params: { lines: 10 } });
    expect(text(later)).toBe("still works");
    expect(chunks.join("")).toBe(output + "x".repeat(999).concat("\n").repeat(10));
  });
});
