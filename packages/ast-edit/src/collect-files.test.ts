import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Lang } from "@ast-grep/napi";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collectFiles } from "./collect-files.js";
import { resolveFileSystem } from "./file-system.js";

const fileSystem = resolveFileSystem();
let root: string;
let cwd: string;

async function write(relativePath: string, text = "foo(1);\n"): Promise<void> {
  await mkdir(dirname(join(cwd, relativePath)), { recursive: true });
  await writeFile(join(cwd, relativePath), text);
}

const paths = async (options: Omit<Parameters<typeof collectFiles>[1], "cwd">) =>
  (await collectFiles(fileSystem, { cwd, ...options })).files.map((file) => [
    file.relativePath,
    file.language,
  ]);

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "tooldock-ast-edit-collect-")));
  cwd = join(root, "project");
  await mkdir(cwd);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("collectFiles", () => {
  it("walks the directory in path order, infers languages and skips node_modules, .git and other files", async () => {
    await write("src/b.ts");
    await write("src/a.tsx");
    await write("web/index.html", "<p></p>");
    await write("web/site.css", "a {}");
    await write("lib/x.mjs");
    await write("README.md", "# x");
    await write("node_modules/pkg/index.js");
    await write(".git/hooks/pre-commit.js");
    expect(await paths({})).toEqual([
      ["lib/x.mjs", Lang.JavaScript],
      ["src/a.tsx", Lang.Tsx],
      ["src/b.ts", Lang.TypeScript],
      ["web/index.html", Lang.Html],
      ["web/site.css", Lang.Css],
    ]);
  });

  it("narrows by path, glob and lang", async () => {
    await write("src/a.ts");
    await write("src/a.test.ts");
    await write("src/view.tsx");
    await write("other/b.ts");
    expect(await paths({ path: "src", glob: "*.test.ts" })).toEqual([["src/a.test.ts", Lang.TypeScript]]);
    expect(await paths({ language: Lang.Tsx })).toEqual([["src/view.tsx", Lang.Tsx]]);
  });

  it("takes a single file as given and parses it as lang when lang is set", async () => {
    await write("scripts/build", "run(1);\n");
    expect(await paths({ path: "scripts/build", language: Lang.JavaScript })).toEqual([
      ["scripts/build", Lang.JavaScript],
    ]);
    await expect(paths({ path: "scripts/build" })).rejects.toThrow(
      /Cannot tell the language of "scripts\/build" from its extension\. Pass lang/,
    );
  });

  it("refuses paths outside cwd", async () => {
    await writeFile(join(root, "secret.ts"), "foo(1);");
    await expect(paths({ path: "../secret.ts" })).rejects.toMatchObject({
      code: "E_AST_EDIT_PATH",
      message: expect.stringContaining('path "../secret.ts" is outside the working directory'),
    });
    await expect(paths({ path: join(root, "secret.ts") })).rejects.toMatchObject({ code: "E_AST_EDIT_PATH" });
  });

  it("refuses a symbolic link that leads outside cwd and does not follow links while walking", async () => {
    await mkdir(join(root, "outside"));
    await writeFile(join(root, "outside", "x.ts"), "foo(1);");
    await symlink(join(root, "outside"), join(cwd, "linked"));
    await write("src/a.ts");
    await expect(paths({ path: "linked" })).rejects.toThrow(/is outside the working directory/);
    expect(await paths({})).toEqual([["src/a.ts", Lang.TypeScript]]);
  });

  it("says when the path does not exist", async () => {
    await expect(paths({ path: "missing" })).rejects.toThrow(
      /path "missing" does not exist in .*Pass an existing file/,
    );
  });
});
