import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli } from "./cli-process.js";

// A .ts tool that throws from a helper function; its types compile away, so only a
// source-mapped stack names the right line.
const fixtures = fileURLToPath(new URL("./fixtures", import.meta.url));
const toolFile = join(fixtures, "tool-fault", "fails.ts");
const throwLine =
  readFileSync(toolFile, "utf8")
    .split("\n")
    .findIndex((line) => line.includes("THROWS-HERE")) + 1;

beforeAll(assertBuilt);

describe("tooldock call on a tool that throws", () => {
  it("prints the result the model reads, then where the tool threw and its .ts stack on stderr", async () => {
    const run = await runCli(["call", "fails", "tool-fault/fails.ts"], { cwd: fixtures });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Tool "fails" failed: over budget: 3 > 2.');
    expect(run.stdout).not.toContain("fails.ts:");
    const lines = run.stderr.split("\n");
    const header = lines.findIndex((line) => line.startsWith('tooldock call: "fails" threw at '));
    expect(lines[header]).toMatch(
      new RegExp(`^tooldock call: "fails" threw at tool-fault/fails\\.ts:${throwLine}:\\d+$`),
    );
    expect(lines[header + 1]).toBe("  RangeError: over budget: 3 > 2");
    expect(lines[header + 2]).toMatch(
      new RegExp(`^ {6}at charge \\(${toolFile.replace(/[.]/g, "\\.")}:${throwLine}:\\d+\\)$`),
    );
  });

  it("puts the error, with its location and stack, in --json output", async () => {
    const run = await runCli(["call", "fails", "tool-fault/fails.ts", "--json"], { cwd: fixtures });
    expect(run.code).toBe(1);
    const output = JSON.parse(run.stdout);
    expect(Object.keys(output)).toEqual(["result", "error", "pending", "resolved"]);
    expect(output.result.isError).toBe(true);
    expect(output.error).toMatchObject({
      message: "over budget: 3 > 2",
      name: "RangeError",
      location: { file: toolFile, line: throwLine, column: expect.any(Number) },
    });
    expect(output.error.stack).toContain(`${toolFile}:${throwLine}:`);
  });
});
