// Found by the pi drift check: `tooldock call` built its ToolHost without a logger, so what a
// tool wrote with `pi.logger` (a warning that a quota is nearly used up, an error it recovered
// from) was dropped, in-process and from a tool host, where `mcp` and `inspect` show it. Fixed:
// the lines go to stderr as `mcp` writes them (`[level] message data`); stdout keeps the result.
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

const LOGGING_TOOL = `
import { Type } from "@sinclair/typebox";
export default (pi) => {
  pi.logger.info("quota tool loaded");
  return {
    name: "quota",
    label: "Quota",
    description: "Says how much quota is left",
    parameters: Type.Object({}),
    async execute() {
      pi.logger.warn("quota nearly used up", { left: 3 });
      return { content: [{ type: "text", text: "3 left" }] };
    },
  };
};
`;

describe("tooldock call and a tool's pi.logger", () => {
  it.each([
    ["in-process", ["--no-isolate"]],
    ["in a tool host", ["--isolate"]],
  ])("writes the tool's log lines to stderr (%s)", async (_mode, flags) => {
    const dir = await tempDir({ "tools/quota.ts": LOGGING_TOOL });
    try {
      const run = await runCli(["call", "quota", "tools", "--args", "{}", ...flags], { cwd: dir.path });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("3 left");
      expect(run.stdout).not.toContain("quota nearly used up");
      expect(run.stderr).toContain("[info] quota tool loaded");
      expect(run.stderr).toContain('[warn] quota nearly used up {"left":3}');
    } finally {
      await dir.remove();
    }
  });
});
