import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findTsconfig } from "./find-tsconfig.js";

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
    const first = await findTsconfig(entry);
    expect(first?.path).toBe(join(root, "project/tsconfig.json"));
    await writeFile(
      join(root, "project/tsconfig.base.json"),
      '{ "compilerOptions": { "target": "ES2020" } }',
    );
    const afterBaseEdit = await findTsconfig(entry);
    expect(afterBaseEdit?.hash).not.toBe(first?.hash);
    await writeFile(
      join(root, "project/node_modules/shared-config/tsconfig.json"),
      '{ "compilerOptions": { "jsx": "react" } }',
    );
    expect((await findTsconfig(entry))?.hash).not.toBe(afterBaseEdit?.hash);
  });

  it("answers the other entries of a batch from the memo, and a fresh lookup sees an edit", async () => {
    const memo = new Map();
    const first = findTsconfig(join(root, "project/tools/deep/tool.ts"), memo);
    expect(memo.get(join(root, "project/tools"))).toEqual(first);
    await writeFile(join(root, "project/tsconfig.json"), '{ "compilerOptions": { "strict": false } }');
    // Same batch: the sibling folder's walk stops at the memoised parent.
    expect(findTsconfig(join(root, "project/tools/other.ts"), memo)).toEqual(first);
    expect(findTsconfig(join(root, "project/tools/other.ts"))?.hash).not.toBe(first?.hash);
  });

  it("follows a base named by its package alone to the package's tsconfig.json", async () => {
    // TypeScript resolves `"extends": "<package>"` to the package's tsconfig.json; `require`
    // does not (the package has no `main`), so a hand-written resolver missed edits of it.
    await mkdir(join(root, "by-name/node_modules/named-config"), { recursive: true });
    await writeFile(join(root, "by-name/tsconfig.json"), '{ "extends": "named-config" }');
    await writeFile(
      join(root, "by-name/node_modules/named-config/package.json"),
      '{ "name": "named-config" }',
    );
    const base = join(root, "by-name/node_modules/named-config/tsconfig.json");
    await writeFile(base, '{ "compilerOptions": { "strict": true } }');
    const entry = join(root, "by-name/tool.ts");
    const first = findTsconfig(entry);
    await writeFile(base, '{ "compilerOptions": { "strict": false } }');
    expect(findTsconfig(entry)?.hash).not.toBe(first?.hash);
  });

  it("changes its hash when a missing base appears", async () => {
    await mkdir(join(root, "missing-base"), { recursive: true });
    await writeFile(join(root, "missing-base/tsconfig.json"), '{ "extends": "./base.json" }');
    const entry = join(root, "missing-base/tool.ts");
    const first = findTsconfig(entry);
    expect(first?.path).toBe(join(root, "missing-base/tsconfig.json"));
    await writeFile(join(root, "missing-base/base.json"), "{}");
    expect(findTsconfig(entry)?.hash).not.toBe(first?.hash);
  });

  it("returns null when no folder up to the root has one", async () => {
    expect(await findTsconfig("/tooldock-no-such-dir/x/tool.ts")).toBeNull();
  });
});
