// Found in CI with two busy loops beside the suite: `validate` watched a tool host for 500 ms
// of the host's clock after its module loaded. On a machine busy enough that the tool host
// was not scheduled in that time, a module that ends its process from a 50 ms timer right
// after loading passed, and CI went green on it. The window is now the tool host's own
// timers. Here the module itself keeps its tool host from running (it blocks its event loop
// for 1.5 s once its session ended), as a busy machine would.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

const LATE_EXIT = `export default (pi) => ({
  name: "late_exit",
  label: "Late exit",
  description: "Ends its process right after its session ended",
  parameters: pi.typebox.Type.Object({}),
  execute: async () => ({ content: [] }),
  onSession(event) {
    if (event.reason !== "shutdown") return;
    // When its session ends (validate's last step with it): an exit 50 ms on, and its event
    // loop blocked for 1.5 s in between, as on a machine that does not schedule it.
    setTimeout(() => process.exit(3), 50);
    setImmediate(() => {
      const until = Date.now() + 1500;
      while (Date.now() < until) {}
    });
  },
});
`;

beforeAll(assertBuilt);

let dir: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  dir = await tempDir({ "tools/late-exit.mjs": LATE_EXIT });
});

afterEach(async () => {
  await dir.remove();
});

describe("tooldock validate, a module whose tool host is scheduled late", () => {
  it("reports its exit from a timer right after loading (timer-exit-passes-on-a-busy-machine)", async () => {
    const run = await runCli(["validate", "tools", "--format", "json"], { cwd: dir.path });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { diagnostics: Array<{ code: string; message: string }> };
    expect(report.diagnostics.map(({ code }) => code)).toEqual(["E_TOOL_HOST"]);
    expect(report.diagnostics[0]?.message).toMatch(/It exited with code 3/);
  });
});
