import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "./atomic-write.js";
import { resolveFileSystem } from "./file-system.js";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "tooldock-ast-edit-write-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("writeFileAtomic", () => {
  it("replaces the file, keeps its permission bits and leaves no temporary file", async () => {
    const path = join(directory, "run.js");
    await writeFile(path, "old();\n");
    await chmod(path, 0o755);
    await writeFileAtomic(resolveFileSystem(), path, "new();\n");
    expect(await readFile(path, "utf8")).toBe("new();\n");
    expect((await stat(path)).mode & 0o777).toBe(0o755);
    expect(await readdir(directory)).toEqual(["run.js"]);
  });

  it("removes the temporary file and leaves the target untouched when the rename fails", async () => {
    const path = join(directory, "a.ts");
    await writeFile(path, "old();\n");
    const renamed: string[] = [];
    const fileSystem = resolveFileSystem({
      rename: async (from) => {
        renamed.push(String(from));
        throw Object.assign(new Error("EXDEV: cross-device link not permitted"), { code: "EXDEV" });
      },
    });
    await expect(writeFileAtomic(fileSystem, path, "new();\n")).rejects.toThrow(/EXDEV/);
    expect(renamed).toHaveLength(1);
    expect(renamed[0]).toMatch(/\.a\.ts\.[0-9a-f]{12}\.tooldock-tmp$/);
    expect(await readFile(path, "utf8")).toBe("old();\n");
    expect(await readdir(directory)).toEqual(["a.ts"]);
  });
});
