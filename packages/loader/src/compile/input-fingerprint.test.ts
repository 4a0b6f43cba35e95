import { mkdtemp, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintMatches, fingerprintOf, RACY_WINDOW_MS } from "./input-fingerprint.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tooldock-fingerprint-"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("fingerprintOf", () => {
  it("gives a file changed within the racy window no fingerprint, so its content is hashed", async () => {
    const file = join(root, "fresh.ts");
    await writeFile(file, "export const a = 1;\n");
    const stats = await stat(file);
    expect(fingerprintOf(stats, stats.ctimeMs + RACY_WINDOW_MS - 1)).toBeUndefined();
    expect(fingerprintMatches(stats, undefined)).toBe(false);
  });

  it("changes on a same-size edit even when the old mtime is put back", async () => {
    const file = join(root, "edited.ts");
    await writeFile(file, "export const a = 1;\n");
    await utimes(file, 1_700_000_000, 1_700_000_000); // whole seconds: restored exactly below
    const before = await stat(file);
    const recorded = fingerprintOf(before, before.ctimeMs + RACY_WINDOW_MS);
    expect(recorded).toBeDefined();
    expect(fingerprintMatches(await stat(file), recorded)).toBe(true);
    await sleep(50); // past the file system's timestamp tick, as the racy window guarantees
    await writeFile(file, "export const a = 2;\n");
    await utimes(file, 1_700_000_000, 1_700_000_000);
    const after = await stat(file);
    expect(after.size).toBe(before.size);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(fingerprintMatches(after, recorded)).toBe(false);
  });
});
