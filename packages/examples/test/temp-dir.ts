import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temporary folder seeded with files; `remove()` deletes it. */
export async function tempDir(files: Record<string, string> = {}) {
  const path = await mkdtemp(join(tmpdir(), "tooldock-examples-"));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(path, name, ".."), { recursive: true });
    await writeFile(join(path, name), content);
  }
  return {
    path,
    files: async () => (await readdir(path, { recursive: true })).sort(),
    remove: () => rm(path, { recursive: true, force: true }),
  };
}

/** The text of a result's first block. */
export const textOf = (result: { content: Array<{ type: string; text?: string }> }) =>
  result.content.map((block) => block.text ?? "").join("\n");
