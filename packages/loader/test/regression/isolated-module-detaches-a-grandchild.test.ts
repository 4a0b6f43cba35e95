import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { attackModule } from "../isolation/attack-helpers.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

/**
 * Attack: an isolated module allowed to start processes (`allowExec`) starts a program in a
 * session of its own (`detached: true` is `setsid`) that backgrounds another and exits, as a
 * daemon does. The tool host's process group was killed when it stopped, but the grandchild had
 * left the group and been handed to init: it outlived the tool host, the session and the host,
 * with the tool host's rights. Fixed: on Linux, a tool host that may start processes runs in a
 * PID namespace of its own (util-linux's `unshare`, with a user namespace unless the host is
 * root), and when it ends the kernel ends every process in it, detached or not.
 */
const onLinux = process.platform === "linux";

/** Process ids whose command line contains `token`. */
function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(token)) found.push(Number(entry));
    } catch {
      // It ended while we looked.
    }
  }
  return found;
}

const tokens: string[] = [];
afterEach(() => {
  for (const token of tokens.splice(0)) {
    for (const pid of processesWith(token)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone.
      }
    }
  }
});

describe.runIf(onLinux)("an isolated module that detaches a grandchild", () => {
  it("has it ended with the tool host", async () => {
    // A fractional `sleep` names the grandchild uniquely on the process list.
    const token = `300.${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    tokens.push(token);
    const where = await project({
      "daemon.ts": attackModule(`
        const { spawn } = await import("node:child_process");
        const child = spawn("sh", ["-c", "sleep ${token} </dev/null >/dev/null 2>&1 &"], { detached: true, stdio: "ignore" });
        await new Promise((resolve) => child.on("exit", resolve));
        return "detached";
      `),
    });
    const { session, isolated } = await load(where, { mode: "process", allowExec: true });
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(text(result)).toBe("detached");
    await expect.poll(() => processesWith(token).length, { timeout: 20_000 }).toBe(1);

    await isolated?.close();
    await expect.poll(() => processesWith(token), { timeout: 20_000 }).toEqual([]);
  });
});
