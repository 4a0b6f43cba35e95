import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  checkPrivateFolder,
  checkPrivateFolderSync,
  defaultUserFolder,
  ensurePrivateFolder,
} from "./private-folder.js";

const posix = typeof process.getuid === "function";

describe("defaultUserFolder", () => {
  it("uses an absolute XDG folder", () => {
    expect(defaultUserFolder("cache", { XDG_CACHE_HOME: "/x/cache" })).toBe("/x/cache/tooldock");
    expect(defaultUserFolder("state", { XDG_STATE_HOME: "/x/state" })).toBe("/x/state/tooldock");
  });

  it("ignores a relative or empty XDG value and falls back to the home folder", () => {
    const env = { HOME: "/home/ada", XDG_CACHE_HOME: "relative/cache", XDG_STATE_HOME: "" };
    expect(defaultUserFolder("cache", env)).toBe("/home/ada/.cache/tooldock");
    expect(defaultUserFolder("state", env)).toBe("/home/ada/.local/state/tooldock");
  });

  it("uses os.homedir() when HOME is not an absolute path", () => {
    expect(defaultUserFolder("cache", { HOME: "nope" })).toBe(join(homedir(), ".cache", "tooldock"));
  });
});

describe("checkPrivateFolder / ensurePrivateFolder", () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), "private-folder-"));
  });
  afterEach(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it("creates missing folders with mode 0700 and accepts them", async () => {
    const root = join(base, "root");
    const folder = join(root, "a", "b");
    expect(await ensurePrivateFolder(folder, root)).toEqual({ ok: true });
    if (posix) {
      expect(statSync(root).mode & 0o777).toBe(0o700);
      expect(statSync(folder).mode & 0o777).toBe(0o700);
    }
    expect(await checkPrivateFolder(folder, root)).toEqual({ ok: true });
    expect(checkPrivateFolderSync(folder, root)).toEqual({ ok: true });
  });

  it("accepts an existing 0755 folder (not writable by others)", async () => {
    const root = join(base, "root");
    mkdirSync(root, { mode: 0o755 });
    chmodSync(root, 0o755);
    expect(await checkPrivateFolder(root, root)).toEqual({ ok: true });
  });

  it("reports a folder that does not exist", async () => {
    const root = join(base, "missing");
    expect(await checkPrivateFolder(root, root)).toEqual({
      ok: false,
      folder: root,
      reason: "does not exist",
    });
  });

  it.runIf(posix)("refuses a world-writable parent, naming it, and does not change its mode", async () => {
    const root = join(base, "root");
    const folder = join(root, "bundles");
    mkdirSync(folder, { recursive: true });
    chmodSync(root, 0o777);
    const expected = {
      ok: false,
      folder: root,
      reason: "is writable by group or others (mode 777)",
    };
    expect(await checkPrivateFolder(folder, root)).toEqual(expected);
    expect(checkPrivateFolderSync(folder, root)).toEqual(expected);
    expect(await ensurePrivateFolder(folder, root)).toEqual(expected);
    expect(statSync(root).mode & 0o777).toBe(0o777);
  });

  it.runIf(posix)("refuses a group-writable folder", async () => {
    const root = join(base, "root");
    mkdirSync(root);
    chmodSync(root, 0o770);
    const expected = { ok: false, folder: root, reason: "is writable by group or others (mode 770)" };
    expect(await checkPrivateFolder(root, root)).toEqual(expected);
    expect(checkPrivateFolderSync(root, root)).toEqual(expected);
  });

  it("refuses a symbolic link, even to a private folder", async () => {
    const real = join(base, "real");
    mkdirSync(real, { mode: 0o700 });
    const root = join(base, "link");
    symlinkSync(real, root);
    expect(await checkPrivateFolder(root, root)).toEqual({
      ok: false,
      folder: root,
      reason: "is a symbolic link, not a real folder",
    });
  });

  it("refuses a file where a folder should be, and ensure never throws on it", async () => {
    const root = join(base, "root");
    writeFileSync(root, "x");
    expect(await checkPrivateFolder(root, root)).toEqual({
      ok: false,
      folder: root,
      reason: "is not a folder",
    });
    const created = await ensurePrivateFolder(join(root, "inner"), root);
    expect(created).toMatchObject({ ok: false, folder: join(root, "inner") });
  });

  it("refuses a folder outside the root", async () => {
    expect(await checkPrivateFolder(join(base, "x"), join(base, "root"))).toMatchObject({
      ok: false,
      reason: `is not inside ${join(base, "root")}`,
    });
  });

  it.runIf(posix && process.getuid?.() === 0)("refuses a folder owned by another user", async () => {
    const root = join(base, "root");
    mkdirSync(root, { mode: 0o700 });
    chownSync(root, 12345, 12345);
    expect(await checkPrivateFolder(root, root)).toEqual({
      ok: false,
      folder: root,
      reason: "is owned by user id 12345, not by you (user id 0)",
    });
  });
});
