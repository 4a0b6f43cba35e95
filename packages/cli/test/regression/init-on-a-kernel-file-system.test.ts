// Attack (by mistake as often as not): `tooldock init /proc/x` never returned (Node's
// recursive mkdir loops on procfs) and `tooldock init /sys/x` ended in "internal error" with a
// stack. Fix: init refuses a folder on a kernel file system (or under /proc, /sys, /dev) with a
// usage error before writing anything, and any write error is a usage error that names the file.
import { execFile } from "node:child_process";
import { chmod, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../src/run.js";
import { memoryIo, workFolder } from "../memory-io.js";

describe.skipIf(process.platform !== "linux")("regression: tooldock init on a kernel file system", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;
  beforeEach(async () => {
    folder = await workFolder({});
  });
  afterEach(() => folder.remove());

  it.each([
    ["/proc/tooldock-init-test", "proc"],
    ["/sys/tooldock-init-test", "sysfs"],
    ["/dev/tooldock-init-test", "/dev"],
  ])("refuses %s with exit code 2, naming why", async (target, why) => {
    const memory = memoryIo(folder.path, folder.env);
    const code = await run(["init", target], memory.io);
    expect(code).toBe(2);
    expect(memory.stderr()).toContain(`cannot create a package in ${target}`);
    expect(memory.stderr()).toContain(why);
    expect(memory.stderr()).not.toContain("internal error");
  });

  it("reports a folder it cannot write as bad usage, not an internal error", async (context) => {
    const locked = join(folder.path, "locked");
    await mkdir(locked);
    // Root writes through any mode: an immutable folder (ext4, xfs, btrfs) stops it too.
    const unlock = await lockFolder(locked);
    if (unlock === undefined) {
      context.skip("this file system cannot make a folder unwritable for root");
      return;
    }
    const memory = memoryIo(folder.path, folder.env);
    const code = await run(["init", "locked/pkg"], memory.io);
    await unlock();
    expect(code).toBe(2);
    expect(memory.stderr()).toContain("cannot write locked/pkg/package.json");
    expect(memory.stderr()).not.toContain("internal error");
    expect(await readdir(locked)).toEqual([]);
  });
});

/** Makes `folder` unwritable, for root too where it can; resolves with the undo, or `undefined`. */
async function lockFolder(folder: string): Promise<(() => Promise<void>) | undefined> {
  if (process.getuid?.() !== 0) {
    await chmod(folder, 0o500);
    return () => chmod(folder, 0o700);
  }
  try {
    await promisify(execFile)("chattr", ["+i", folder]);
  } catch {
    return undefined;
  }
  return async () => {
    await promisify(execFile)("chattr", ["-i", folder]);
  };
}
