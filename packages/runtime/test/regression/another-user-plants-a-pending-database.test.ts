import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteJournal } from "../../src/pending/journal/sqlite-journal.js";

/**
 * Attack: another user of the machine plants a pending-action database (or its `-wal` file,
 * which SQLite replays) where a host will open one, so that the next `resolve` applies the
 * attacker's payload with the host's rights. The journal refuses a database in a folder
 * others can write, and a file of the database that is not the user's own.
 */
const root = typeof process.getuid === "function" && process.getuid() === 0;
let folder = "";

beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-pending-db-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function refusal(path: string): string {
  try {
    openSqliteJournal(path).close();
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
  return "opened";
}

describe("a pending-action database another user could have written", () => {
  it("is refused in a folder writable by others (a shared /tmp-like folder)", () => {
    chmodSync(folder, 0o1777);
    expect(refusal(join(folder, "pending.db"))).toMatch(
      /^E_PENDING_STORE: The pending-action database .* cannot be used: its folder .* is writable by group or others/,
    );
  });

  it.runIf(root)("is refused when the database file belongs to another user", () => {
    const path = join(folder, "pending.db");
    writeFileSync(path, "");
    chownSync(path, 65534, 65534);
    expect(refusal(path)).toMatch(
      /^E_PENDING_STORE: The pending-action database file pending.db in .* is owned by user id 65534, not by you/,
    );
  });

  it.runIf(root)("is refused when its -wal file was planted by another user", () => {
    const path = join(folder, "pending.db");
    writeFileSync(`${path}-wal`, "planted");
    chownSync(`${path}-wal`, 65534, 65534);
    expect(refusal(path)).toMatch(/pending.db-wal in .* is owned by user id 65534, not by you/);
  });

  it("is refused when the database file is writable by others", () => {
    const path = join(folder, "pending.db");
    writeFileSync(path, "");
    chmodSync(path, 0o666);
    expect(refusal(path)).toMatch(/pending.db in .* is writable by group or others/);
  });

  it("is created with mode 0600 in a private folder (and not at all without a driver)", () => {
    chmodSync(folder, 0o700);
    const path = join(folder, "pending.db");
    const outcome = refusal(path);
    if (outcome === "opened") {
      expect(statSync(path).mode & 0o777).toBe(0o600);
    } else {
      // This Node has no SQLite driver (Node 20 without better-sqlite3): it says so, and makes no file.
      expect(outcome).toMatch(
        /^E_PENDING_STORE: No SQLite driver .* Run Node 22.13 or later, or install better-sqlite3/,
      );
      expect(existsSync(path)).toBe(false);
    }
  });
});
