import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readIsolation } from "../../src/isolate/isolation-flags.js";
import { run } from "../../src/run.js";
import { memoryIo, workFolder } from "../memory-io.js";

// Attack: `--isolate-timeout` above 2^31-1 ms overflowed Node's timer into a 1 ms delay, so
// every module "timed out" at once and a good module was reported as hanging.
const MODULE = `export default (pi) => ({
  name: "fine",
  label: "Fine",
  description: "Loads at once.",
  parameters: pi.typebox.Type.Object({}),
  execute: async () => ({ content: [] }),
});
`;

describe("--isolate-timeout beyond what a timer holds", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;

  beforeEach(async () => {
    folder = await workFolder({ "tools/fine.mjs": MODULE });
  });
  afterEach(() => folder.remove());

  it("is bad usage (exit code 2) from the flag, before any module runs", async () => {
    const memory = memoryIo(folder.path, folder.env);
    const code = await run(["validate", "tools", "--isolate", "--isolate-timeout", "2147483648"], memory.io);
    expect(code).toBe(2);
    expect(memory.stderr()).toContain('--isolate-timeout must be at most 2147483647 (got "2147483648")');
    expect(memory.stderr()).toContain("usage: tooldock validate");
    expect(memory.stdout()).toBe("");
  });

  it("is bad usage from the environment variable too", async () => {
    const memory = memoryIo(folder.path, { ...folder.env, TOOLDOCK_ISOLATE_TIMEOUT_MS: "1e12" });
    expect(await run(["validate", "tools", "--isolate"], memory.io)).toBe(2);
    expect(memory.stderr()).toContain('TOOLDOCK_ISOLATE_TIMEOUT_MS must be at most 2147483647 (got "1e12")');
  });

  it("accepts the largest delay a timer holds", () => {
    const args = { values: { "isolate-timeout": "2147483647" }, positionals: [], help: false };
    expect(readIsolation(args, { env: {}, stderr: process.stderr }, "validate", true)?.loadTimeoutMs).toBe(
      2_147_483_647,
    );
  });
});
