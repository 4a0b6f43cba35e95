// Found by a review of the tool host's output: what a module writes to descriptor 1 without a
// `\n` (a progress bar redrawn with `\r`) was held by the host until the line ended, so a long
// call's progress reached `isolation.onOutput` only with the call's answer; and a bar redrawn
// for long enough (64 MiB) stopped the tool host for "a message longer than" the cap. The
// module here prints its progress, then waits for the host to have seen it (the host, told
// through onOutput, writes a file in the working folder) before it answers.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

const PROGRESS = `
import { existsSync, writeSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "progress",
  label: "Progress",
  description: "Prints a progress bar, then waits until the host has seen it",
  parameters: Type.Object({}),
  async execute(_id, _params, _onUpdate, ctx) {
    writeSync(1, "\\rworking: 50%");
    // Polled: the host's sign is a file, and watching needs more rights than reading.
    await new Promise((resolve) => {
      const timer = setInterval(() => {
        if (!existsSync(join(ctx.cwd, "seen"))) return;
        clearInterval(timer);
        resolve();
      }, 5);
    });
    writeSync(1, "\\rworking: done\\n");
    return { content: [{ type: "text", text: "finished" }] };
  },
});
`;

describe("an isolated module's progress bar", () => {
  it("reaches the host as it is printed, before its line ends", async () => {
    const where = await project({ "progress.ts": PROGRESS });
    let output = "";
    const { session, diagnostics } = await load(where, {
      mode: "process",
      onOutput: (chunk) => {
        output += chunk;
        if (output.includes("working: 50%")) void writeFile(join(where.work, "seen"), "");
      },
    });
    expect(diagnostics).toEqual([]);
    const result = await session.execute({ toolCallId: "1", name: "progress", params: {} });
    expect(text(result)).toBe("finished");
    expect(output).toBe("\rworking: 50%\rworking: done\n");
  });
});
