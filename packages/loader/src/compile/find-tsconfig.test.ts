import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findTsconfig, stripJsonComments } from "./find-tsconfig.js";
import { hash } from "./hash.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tooldock-tsconfig-"));
  await mkdir(join(root, "project/tools/deep"), { recursive: true });
  await mkdir(join(root, "project/node_modules/shared-config"), { recursive: true });
  await writeFile(
    join(root, "project/tsconfig.json"),
    '{\n  // comments are allowed\n  "extends": ["./tsconfig.base", "shared-config/tsconfig.json"],\n  "compilerOptions": { "strict": true, },\n}\n',
  );
  await writeFile(join(root, "project/tsconfig.base.json"), '{ "compilerOptions": { "target": "ES2022" } }');
  await writeFile(
    join(root, "project/node_modules/shared-config/tsconfig.json"),
    '{ "compilerOptions": {} }',
  );
  await writeFile(join(root, "project/tools/deep/tool.ts"), "export default () => [];");
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("findTsconfig", () => {
  it("finds the nearest tsconfig.json and changes its hash when a config it extends changes", async () => {
    const entry = join(root, "project/tools/deep/tool.ts");
    const first = await findTsconfig(entry, hash);
    expect(first?.path).toBe(join(root, "project/tsconfig.json"));
    await writeFile(
      join(root, "project/tsconfig.base.json"),
      '{ "compilerOptions": { "target": "ES2020" } }',
    );
    const afterBaseEdit = await findTsconfig(entry, hash);
    expect(afterBaseEdit?.hash).not.toBe(first?.hash);
    await writeFile(
      join(root, "project/node_modules/shared-config/tsconfig.json"),
      '{ "compilerOptions": { "jsx": "react" } }',
    );
    expect((await findTsconfig(entry, hash))?.hash).not.toBe(afterBaseEdit?.hash);
  });

  it("answers the other entries of a batch from the memo, and a fresh lookup sees an edit", async () => {
    const memo = new Map();
    const first = findTsconfig(join(root, "project/tools/deep/tool.ts"), hash, memo);
    expect(memo.get(join(root, "project/tools"))).toEqual(first);
    await writeFile(join(root, "project/tsconfig.json"), '{ "compilerOptions": { "strict": false } }');
    // Same batch: the sibling folder's walk stops at the memoised parent.
    expect(findTsconfig(join(root, "project/tools/other.ts"), hash, memo)).toEqual(first);
    expect(findTsconfig(join(root, "project/tools/other.ts"), hash)?.hash).not.toBe(first?.hash);
  });

  it("returns null when no folder up to the root has one", async () => {
    expect(await findTsconfig("/tooldock-no-such-dir/x/tool.ts", hash)).toBeNull();
  });
});

describe("stripJsonComments", () => {
  it("removes comments and trailing commas but keeps strings intact", () => {
    const text = '{ "a": "http://x/*y*/", // line\n /* block */ "b": [1, 2,], }';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ a: "http://x/*y*/", b: [1, 2] });
  });
});
