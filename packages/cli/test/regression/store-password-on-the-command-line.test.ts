// Attack (another user of this machine, reading /proc): `tooldock call --store
// postgresql://app:secret@db/chat` puts the database password in the process's arguments,
// which every user can read (`ps`, /proc/<pid>/cmdline), and with it every pending payload
// the next resolve applies. Fix: a connection string with a password is refused before
// anything connects, and the message says where the password goes (PGPASSWORD, ~/.pgpass).
import { describe, expect, it } from "vitest";
import { runCli } from "../cli-process.js";

describe("regression: a store password on the command line", () => {
  it.each([
    "postgresql://app:s3cret-pass@db.internal/chat",
    "postgres://app@db.internal/chat?password=s3cret-pass",
  ])("refuses %s and says where the password goes", async (url) => {
    const run = await runCli(["pending", "list", "--store", url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("keep the password out of the command line");
    expect(run.stderr).toContain("PGPASSWORD or ~/.pgpass");
    expect(run.stderr).not.toContain("s3cret-pass");
  });
});
