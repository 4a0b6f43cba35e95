import { describe, expect, it } from "vitest";
import { EXEC_SPAWN_FAILURE_CODE, execCommand } from "./exec.js";

const node = process.execPath;

describe("execCommand", () => {
  it("runs argv without a shell and collects output and exit code", async () => {
    const result = await execCommand(
      node,
      ["-e", "process.stdout.write(process.argv[1]); process.stderr.write('e'); process.exit(4)", "$HOME;|x"],
      "/",
    );
    expect(result).toEqual({ stdout: "$HOME;|x", stderr: "e", code: 4, killed: false });
  });

  it("runs in the given cwd, defaulting to the host's", async () => {
    const script = "process.stdout.write(process.cwd())";
    expect((await execCommand(node, ["-e", script], "/tmp")).stdout).toBe("/tmp");
    expect((await execCommand(node, ["-e", script], "/tmp", { cwd: "/" })).stdout).toBe("/");
  });

  it("reports a signal-killed process with a non-zero code and the signal name", async () => {
    const result = await execCommand(node, ["-e", "process.kill(process.pid, 'SIGKILL')"], "/");
    expect(result.signal).toBe("SIGKILL");
    expect(result.code).toBe(137);
    expect(result.killed).toBe(false);
  });

  it("kills on abort and on timeout, with killed: true", async () => {
    const controller = new AbortController();
    const running = execCommand(node, ["-e", "setInterval(() => {}, 1000)"], "/", {
      signal: controller.signal,
    });
    controller.abort();
    const aborted = await running;
    expect(aborted).toMatchObject({ killed: true, signal: "SIGTERM" });
    expect(aborted.code).not.toBe(0);
    const timedOut = await execCommand(node, ["-e", "setInterval(() => {}, 1000)"], "/", { timeout: 50 });
    expect(timedOut).toMatchObject({ killed: true, signal: "SIGTERM" });
  });

  it("resolves with code 127 when the program cannot be started", async () => {
    const result = await execCommand("tooldock-no-such-program", [], "/");
    expect(result.code).toBe(EXEC_SPAWN_FAILURE_CODE);
    expect(result.stderr).toContain("ENOENT");
  });

  it("resolves, never rejects, when spawn throws synchronously (a NUL byte in the command)", async () => {
    const result = await execCommand("no\0such", [], "/");
    expect(result.code).toBe(EXEC_SPAWN_FAILURE_CODE);
    expect(result.killed).toBe(false);
    expect(result.stderr).toContain("null bytes");
  });
});
