import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hasToolManifest } from "./read-manifest.js";

describe("hasToolManifest", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "tooldock-manifest-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is false without package.json or without a tools field", async () => {
    expect(await hasToolManifest(dir)).toBe(false);
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "x" }));
    expect(await hasToolManifest(dir)).toBe(false);
  });

  it("is true for each of the tooldock, omp and pi fields", async () => {
    for (const field of ["tooldock", "omp", "pi"]) {
      await writeFile(join(dir, "package.json"), JSON.stringify({ [field]: { tools: ["./a.ts"] } }));
      expect(await hasToolManifest(dir)).toBe(true);
    }
  });

  it("is true for a malformed tools field, so loading reports what is wrong", async () => {
    await writeFile(join(dir, "package.json"), JSON.stringify({ tooldock: { tools: "a.ts" } }));
    expect(await hasToolManifest(dir)).toBe(true);
  });
});
