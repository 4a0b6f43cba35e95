import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nodeOnPath } from "./node-on-path.js";

let root = "";
afterEach(() => rm(root, { recursive: true, force: true }));

async function folders() {
  root = await realpath(await mkdtemp(join(tmpdir(), "tooldock-node-on-path-")));
  const bun = join(root, "bun");
  await writeFile(bun, "#!/bin/sh\n", { mode: 0o755 });
  const shim = join(root, "shim");
  const real = join(root, "real");
  const empty = join(root, "empty");
  await Promise.all([mkdir(shim), mkdir(real), mkdir(empty)]);
  await symlink(bun, join(shim, "node"));
  await writeFile(join(real, "node"), "#!/bin/sh\n", { mode: 0o755 });
  return { bun, shim, real, empty };
}

describe("nodeOnPath", () => {
  it("passes over Bun's own node shim to the Node after it", async () => {
    const { bun, shim, real, empty } = await folders();
    expect(nodeOnPath([empty, shim, real].join(":"), bun)).toBe(join(real, "node"));
  });

  it("skips relative entries, which resolve against the working folder", async () => {
    const { bun, real } = await folders();
    expect(nodeOnPath(relative(process.cwd(), real), bun)).toBe("node");
  });

  it("answers plain node when PATH has no Node but Bun's, so the start says it failed", async () => {
    const { bun, shim } = await folders();
    expect(nodeOnPath(shim, bun)).toBe("node");
    expect(nodeOnPath(undefined, bun)).toBe("node");
  });
});
