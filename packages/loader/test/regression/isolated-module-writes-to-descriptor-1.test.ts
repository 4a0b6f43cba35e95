import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

// The tool host's stdout carries its messages to the host. A module that wrote to descriptor
// 1 itself (`fs.writeSync(1, …)`, as pino and other loggers do) broke the protocol: its load
// was E_TOOL_HOST "a line that is not JSON", a hint sent the user looking for an error of the
// module's own, and a call stopped the tool host. JSON log lines were no better.
const LOGGER = `
import { writeSync } from "node:fs";
import { Type } from "@sinclair/typebox";
writeSync(1, "plain line at import\\n");
writeSync(1, JSON.stringify({ level: 30, msg: "json log line at import" }) + "\\n");
export default () => ({
  name: "logs",
  label: "Logs",
  description: "Writes to descriptor 1 while it works",
  parameters: Type.Object({}),
  async execute() {
    writeSync(1, "a record\\u001ewith the mark in it\\n");
    writeSync(1, "half a line, then the result: ");
    return { content: [{ type: "text", text: "done" }] };
  },
});
`;

describe("an isolated module that writes to descriptor 1 itself", () => {
  it("loads and runs, and what it wrote is the tool host's output", async () => {
    const where = await project({ "logs.ts": LOGGER });
    let output = "";
    const { session, tools, diagnostics, isolated } = await load(where, {
      mode: "process",
      onOutput: (chunk) => {
        output += chunk;
      },
    });
    expect(diagnostics).toEqual([]);
    expect(tools.map(({ tool }) => tool.name)).toEqual(["logs"]);
    const first = isolated?.pid;
    const result = await session.execute({ toolCallId: "1", name: "logs", params: {} });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toBe("done");
    expect(text(await session.execute({ toolCallId: "2", name: "logs", params: {} }))).toBe("done");
    expect(isolated?.pid).toBe(first);
    expect(output).toContain("plain line at import\n");
    expect(output).toContain('{"level":30,"msg":"json log line at import"}\n');
    expect(output).toContain("half a line, then the result: ");
    expect(output).toContain("a record\u001ewith the mark in it\n");
  });
});
