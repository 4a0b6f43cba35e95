import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UsageError } from "../args/usage-error.js";
import { scaffoldToolPackage } from "./scaffold.js";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "tooldock-scaffold-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function manifestOf(directory: string) {
  return JSON.parse(await readFile(join(directory, "package.json"), "utf8"));
}

describe("scaffoldToolPackage", () => {
  it("lists the tools folder in the manifest, so every tool file there is loaded", async () => {
    const { directory } = await scaffoldToolPackage({ directory: "word-tools", cwd: root, version: "1.2.3" });
    const manifest = await manifestOf(directory);
    expect(manifest.tooldock).toEqual({ tools: ["./tools"] });
    expect(manifest.devDependencies).toMatchObject({
      "@tooldock/cli": "^1.2.3",
      "@tooldock/loader": "^1.2.3",
      "@tooldock/sdk": "^1.2.3",
    });
    expect(manifest.devDependencies["@tooldock/runtime"]).toBeUndefined();
    expect(manifest.devDependencies["@tooldock/ast-edit"]).toBeUndefined();
    expect(manifest.peerDependencies).toEqual({ "@tooldock/sdk": "^1.2.3" });
  });

  it("with --from, depends on the tarballs in that folder through relative file: specs", async () => {
    const artifacts = join(root, "artifacts");
    await mkdir(artifacts);
    for (const name of ["ast-edit", "cli", "loader", "runtime", "sdk", "ai-sdk"]) {
      await writeFile(join(artifacts, `tooldock-${name}-1.2.3.tgz`), "");
    }
    await writeFile(join(artifacts, "tooldock-sdk-1.0.0.tgz"), "");
    const { directory } = await scaffoldToolPackage({
      directory: "projects/word-tools",
      cwd: root,
      version: "1.2.3",
      from: "artifacts",
    });
    const manifest = await manifestOf(directory);
    expect(manifest.devDependencies).toMatchObject({
      "@tooldock/ast-edit": "file:../../artifacts/tooldock-ast-edit-1.2.3.tgz",
      "@tooldock/cli": "file:../../artifacts/tooldock-cli-1.2.3.tgz",
      "@tooldock/loader": "file:../../artifacts/tooldock-loader-1.2.3.tgz",
      "@tooldock/runtime": "file:../../artifacts/tooldock-runtime-1.2.3.tgz",
      "@tooldock/sdk": "file:../../artifacts/tooldock-sdk-1.2.3.tgz",
    });
    // The published manifest still asks its users for a registry range.
    expect(manifest.peerDependencies).toEqual({ "@tooldock/sdk": "^1.2.3" });
  });

  it("with --from, names the tarballs it lacks and writes nothing", async () => {
    const artifacts = join(root, "artifacts");
    await mkdir(artifacts);
    await writeFile(join(artifacts, "tooldock-sdk-1.2.3.tgz"), "");
    const attempt = scaffoldToolPackage({ directory: "x", cwd: root, version: "1.2.3", from: "artifacts" });
    await expect(attempt).rejects.toThrow(UsageError);
    await expect(attempt).rejects.toThrow(
      /lacks the tarball of @tooldock\/ast-edit .*; @tooldock\/cli .*release:pack/,
    );
    await expect(readFile(join(root, "x", "package.json"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("with --from, says when the folder cannot be read", async () => {
    await expect(
      scaffoldToolPackage({ directory: "x", cwd: root, version: "1.2.3", from: "nowhere" }),
    ).rejects.toThrow(/cannot read the tarball folder nowhere \(--from\): ENOENT/);
  });

  it.each([
    ["resolve", /cannot scaffold a tool named resolve: "resolve" is reserved: it is the hidden tool/],
    ["ast_edit", /"ast_edit" is reserved: it is a built-in tool/],
  ])("refuses --name %s with the reason", async (name, reason) => {
    const attempt = scaffoldToolPackage({ directory: "x", cwd: root, version: "1.2.3", toolName: name });
    await expect(attempt).rejects.toThrow(reason);
    await expect(attempt).rejects.toThrow(/Give another name with --name/);
  });

  it("refuses a tool name longer than providers take (63 characters), from --name or from the folder", async () => {
    const long = "my-very-long-tool-folder-name-for-the-company-internal-reporting-pipeline";
    await expect(scaffoldToolPackage({ directory: long, cwd: root, version: "1.2.3" })).rejects.toThrow(
      /cannot scaffold a tool named my_very_long_.*: 73 characters, and providers take at most 63 \(Gemini\)\. Give a shorter name with --name/,
    );
    await expect(
      scaffoldToolPackage({ directory: "x", cwd: root, version: "1.2.3", toolName: "a".repeat(64) }),
    ).rejects.toThrow(/64 characters/);
    await expect(readFile(join(root, long, "package.json"))).rejects.toMatchObject({ code: "ENOENT" });
    const fits = await scaffoldToolPackage({
      directory: "y",
      cwd: root,
      version: "1.2.3",
      toolName: "a".repeat(63),
    });
    expect(fits.names.toolName).toHaveLength(63);
  });

  it.each([
    ["ünï", /--name ünï holds characters a tool name cannot: only ASCII letters, digits, spaces, - and _/],
    ["9x", /--name 9x starts with a digit: a tool name starts with a letter or _/],
  ])("refuses --name %s instead of rewriting it silently", async (name, reason) => {
    await expect(
      scaffoldToolPackage({ directory: "x", cwd: root, version: "1.2.3", toolName: name }),
    ).rejects.toThrow(reason);
  });

  it("refuses a folder name it would rewrite without a word (found by the second read)", async () => {
    await expect(scaffoldToolPackage({ directory: "ünï", cwd: root, version: "1.2.3" })).rejects.toThrow(
      /the folder name ünï holds characters an npm package name cannot/,
    );
    await expect(
      scaffoldToolPackage({ directory: "ünï", cwd: root, version: "1.2.3", toolName: "word_count" }),
    ).rejects.toThrow(/Choose another folder name/);
    await expect(scaffoldToolPackage({ directory: "123abc", cwd: root, version: "1.2.3" })).rejects.toThrow(
      /the folder name 123abc starts with a digit, and a tool name cannot\. Give the tool's name with --name/,
    );
    const named = await scaffoldToolPackage({
      directory: "123abc",
      cwd: root,
      version: "1.2.3",
      toolName: "abc",
    });
    expect(named.names).toMatchObject({ toolName: "abc", packageName: "123abc" });
  });

  it("refuses a folder called resolve too (the tool name comes from it)", async () => {
    await expect(scaffoldToolPackage({ directory: "resolve", cwd: root, version: "1.2.3" })).rejects.toThrow(
      /"resolve" is reserved/,
    );
  });
});
