// `tooldock list tools | head -1`: the reader exits after its first line, and the CLI's next
// write to the closed pipe failed with an unhandled EPIPE: a stack trace on stderr and exit
// code 1, at random (it depended on when the reader exited). A reader that goes away ends
// what the CLI can print, not the command: the rest of its output is dropped and the exit
// code is the command's own.
import { spawn } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, cliBin, examplesDir } from "../cli-process.js";

beforeAll(assertBuilt);

describe("a reader that closes the CLI's stdout before it is done", () => {
  it("ends the output quietly, with the command's exit code", async () => {
    const child = spawn(process.execPath, [cliBin, "list", "tools"], {
      cwd: examplesDir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Close the reading end at once: every write of the CLI meets a closed pipe.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  });
});
