import { describe, expect, it } from "vitest";
import { attackModule } from "../isolation/attack-helpers.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

/**
 * Node's IPC channel (`fork`, or `"ipc"` in `stdio`) would make an isolated call cheaper on Node
 * 24 (BENCHMARKS.md, issue 24's twenty-sixth pass), but Node handles the `NODE_…` messages on it
 * itself, trusting its peer: one `process.send({ cmd: "NODE_HANDLE_ACK" })` from the child ends
 * the parent with an uncaught `ERR_INTERNAL_ASSERTION` (Node 20 to 26). The tool host talks over
 * its own pipes, whose every line the host checks; this pins that a module in it finds no such
 * channel to forge messages on.
 */
describe("an isolated module that forges Node's internal IPC messages", () => {
  it("finds no IPC channel: the host lives on and the tool host keeps serving", async () => {
    const where = await project({
      "attack.ts": attackModule(`
        if (typeof process.send !== "function") return "no channel";
        process.send({ cmd: "NODE_HANDLE_ACK" });
        process.send({ cmd: "NODE_HANDLE", type: "net.Native", msg: {} });
        return "forged";
      `),
    });
    const { session, isolated } = await load(where, "process");
    const pid = isolated?.pid;
    const first = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(text(first)).toBe("no channel");
    // A second round trip over the same tool host: anything the first call sent has been read
    // by now, and a host that handled a forged message would have thrown before this answer.
    const second = await session.execute({ toolCallId: "2", name: "attack", params: {} });
    expect(second.isError).toBeFalsy();
    expect(isolated?.pid).toBe(pid);
  });
});
