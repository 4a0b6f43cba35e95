import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeDiscoveryFileSystem } from "./file-system.js";
import { hasToolManifest, readToolManifest } from "./read-manifest.js";

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
    await writeFile(join(dir, "package.json"), JSON.stringify({ tooldock: { tools: 42 } }));
    expect(await hasToolManifest(dir)).toBe(true);
  });

  it("is true for a manifest with features only", async () => {
    await writeFile(join(dir, "package.json"), JSON.stringify({ omp: { features: {} } }));
    expect(await hasToolManifest(dir)).toBe(true);
  });
});

describe("readToolManifest (oh-my-pi plugin manifests)", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "tooldock-manifest-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const read = async (manifest: unknown) => {
    await writeFile(join(dir, "package.json"), JSON.stringify(manifest));
    return readToolManifest(dir, nodeDiscoveryFileSystem);
  };

  it("takes tools as one path (a file or a folder) or an array of paths", async () => {
    expect(await read({ omp: { tools: "tools" } })).toEqual({
      kind: "tools",
      field: "omp",
      entries: [{ path: "tools", key: "omp.tools" }],
      ignored: [],
    });
    expect(await read({ pi: { tools: ["a.ts", "more"] } })).toEqual({
      kind: "tools",
      field: "pi",
      entries: [
        { path: "a.ts", key: "pi.tools" },
        { path: "more", key: "pi.tools" },
      ],
      ignored: [],
    });
  });

  it("adds the tools of features with default: true, after the base tools", async () => {
    const result = await read({
      omp: {
        tools: "tools",
        features: {
          search: { default: true, tools: "features/search" },
          extra: { default: true, tools: ["features/a.ts", "features/b.ts"] },
          off: { default: false, tools: ["features/off.ts"] },
          unset: { tools: "features/unset.ts" },
          hooksOnly: { default: true, hooks: "hooks" },
        },
      },
    });
    expect(result).toEqual({
      kind: "tools",
      field: "omp",
      entries: [
        { path: "tools", key: "omp.tools" },
        { path: "features/search", key: "omp.features.search.tools" },
        { path: "features/a.ts", key: "omp.features.extra.tools" },
        { path: "features/b.ts", key: "omp.features.extra.tools" },
      ],
      ignored: [],
    });
  });

  it("takes oh-my-pi's install entries whose dest is under agent/tools/, and names every other key", async () => {
    const result = await read({
      omp: {
        install: [
          { src: "tools/weather/index.ts", dest: "agent/tools/weather/index.ts" },
          { src: "commands/hello.md", dest: "agent/commands/hello.md" },
          { src: "./tools/clock.ts", dest: "./agent/tools/clock.ts" },
        ],
        variables: { apiKey: { env: "WEATHER_KEY" } },
      },
    });
    expect(result).toEqual({
      kind: "tools",
      field: "omp",
      entries: [
        { path: "tools/weather/index.ts", key: "omp.install" },
        { path: "./tools/clock.ts", key: "omp.install" },
      ],
      ignored: ["omp.variables"],
    });
    expect(await read({ omp: { install: [{ src: 1, dest: "agent/tools/x.ts" }] } })).toMatchObject({
      kind: "invalid",
      reason: '"omp.install" in its package.json is not an array of { "src", "dest" } paths',
    });
  });

  it("takes a pi field that lists no tools as a manifest (none of its files is a module), its keys named", async () => {
    expect(await read({ pi: { skills: ["./skills"], themes: ["./themes"] } })).toEqual({
      kind: "tools",
      field: "pi",
      entries: [],
      ignored: ["pi.skills", "pi.themes"],
    });
    // A "tooldock" field without a tool list is none: the folder is scanned as any other.
    expect(await read({ tooldock: { note: "x" } })).toEqual({ kind: "none" });
  });

  it("says which field is wrong", async () => {
    expect(await read({ omp: { tools: 3 } })).toMatchObject({
      kind: "invalid",
      reason: '"omp.tools" in its package.json is neither a path nor an array of paths',
    });
    expect(await read({ omp: { features: { x: { default: true, tools: [1] } } } })).toMatchObject({
      kind: "invalid",
      reason: '"omp.features.x.tools" in its package.json is neither a path nor an array of paths',
    });
    expect(await read({ omp: { features: ["x"] } })).toMatchObject({ kind: "invalid" });
    expect(await read({ omp: { features: { x: true } } })).toMatchObject({ kind: "invalid" });
  });
});
