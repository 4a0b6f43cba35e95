import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { defaultUserFolder } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";

// The suite's hygiene (issue 12): tests write no cache into the system tmp and leave nothing
// there. scripts/vitest-global-setup.ts gives the run one folder; this checks that a test
// worker and a child process it spawns really use it.
describe("the test run's folder", () => {
  const run = process.env.TOOLDOCK_TEST_RUN_DIR;

  it("is the tmp folder of the test worker", () => {
    expect(run).toBeDefined();
    expect(tmpdir()).toBe(join(run as string, "tmp"));
  });

  it("is the tmp folder of a child process, which inherits the cache and state folders", () => {
    const script =
      "const os = require('node:os'); process.stdout.write(JSON.stringify([os.tmpdir(), process.env.XDG_CACHE_HOME, process.env.XDG_STATE_HOME]))";
    const [childTmp, cache, state] = JSON.parse(
      execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }),
    );
    expect(childTmp).toBe(join(run as string, "tmp"));
    expect(cache).toBe(process.env.XDG_CACHE_HOME);
    expect(state).toBe(process.env.XDG_STATE_HOME);
  });

  it("keeps the per-user cache and state folders out of the system tmp and the home folder", () => {
    const cache = defaultUserFolder("cache");
    const state = defaultUserFolder("state");
    for (const folder of [cache, state]) {
      expect(folder).toContain(`${sep}node_modules${sep}.cache${sep}tooldock-test-run-`);
      expect(folder.startsWith(run as string)).toBe(false);
    }
    expect(process.env.TOOLDOCK_CACHE_DIR).toBeUndefined();
  });
});
