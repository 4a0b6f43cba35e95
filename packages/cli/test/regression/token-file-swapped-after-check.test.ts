import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readMcpHttpOptions } from "../../src/commands/mcp-http-options.js";

/**
 * Found by a bug hunt: `--token-file` was checked with `stat` (a regular file, yours, mode
 * 600) and then read again by path. In a folder another user can write, the file could be
 * swapped in between for one whose token that user knows, and the server would accept it.
 * Here `stat` is made to describe the file as it was when checked (safe), while the file read
 * is readable by others: only a check of the very file read refuses it.
 */
vi.mock("node:fs", async (original) => {
  const fs = await original<typeof import("node:fs")>();
  const statSync = ((path: Parameters<typeof fs.statSync>[0]) => {
    const real = fs.statSync(path);
    return Object.assign(Object.create(Object.getPrototypeOf(real)), real, {
      mode: (real.mode & ~0o777) | 0o600,
    });
  }) as typeof fs.statSync;
  return { ...fs, statSync, default: { ...fs, statSync } };
});

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe("mcp --http --token-file", () => {
  it("checks the very file it reads (token-file-swapped-after-check)", async () => {
    const folder = await mkdtemp(join(tmpdir(), "tooldock-token-swap-"));
    folders.push(folder);
    const file = join(folder, "token");
    await writeFile(file, "a-token-another-user-knows\n");
    await chmod(file, 0o644);
    const read = () =>
      readMcpHttpOptions(
        { values: { http: true, "token-file": file }, positionals: [], help: false },
        {},
        folder,
      );
    expect(read).toThrow(/can be read by other users \(mode 644\)/);
    await chmod(file, 0o600);
    expect(read()?.token).toBe("a-token-another-user-knows");
  });
});
