// Found by a review: when the tool host that replaces a stopped one could not start (its Node
// binary gone: a version manager upgraded it under a long-running host), the call said "A new
// one could not start: It could not start: spawn … ENOENT" (without its period) and blamed the
// tool ("This is a fault in the tool, not in your call"), where neither the tool nor the call
// is at fault. What was thrown was read as `(error as Error).message` besides, which says
// "undefined" for a thrown string (and throws itself for a thrown `undefined`): every start
// failure now says what was thrown the one way (`describeError`), in one sentence.
import { rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { attackModule } from "../isolation/attack-helpers.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

describe("a tool host that cannot be started again", () => {
  it("says why once, and does not blame the tool", async () => {
    const where = await project({ "exits.ts": attackModule("process.exit(3);") });
    const node = join(where.root, "node");
    await symlink(process.execPath, node);
    const { session } = await load(where, { mode: "process", execPath: node });
    const first = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(text(first)).toMatch(/It exited with code 3\./);
    await rm(node);
    const again = await session.execute({ toolCallId: "2", name: "attack", params: {} });
    expect(again.isError).toBe(true);
    expect(text(again)).toBe(
      `Tool "attack" could not finish: its tool host (the sandboxed process that runs it) stopped. ` +
        `A new one stopped before it reported its tools. It could not start: spawn ${node} ENOENT. ` +
        "The host could not start a tool host: neither the tool nor your call is at fault; tell the user.",
    );
  });
});
