import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import {
  openSqliteJournal,
  type PendingActionEvent,
  type PendingActionJournal,
  PendingActionStore,
  type ProcessIdentity,
  THIS_PROCESS,
} from "../src/index.js";

/** Another process of this machine, alive (our parent's pid), with its own identity. */
export const ANOTHER_PROCESS: ProcessIdentity = {
  host: THIS_PROCESS.host,
  pid: process.ppid,
  token: "another-process",
};

/**
 * The path of a SQLite journal's file in a folder of its own for each test of the calling file
 * (named `prefix…` under the system's temporary folder), removed after the test. Call it at the
 * top level of a test file: it registers that file's `beforeEach` and `afterEach`.
 */
export function journalFilePerTest(prefix: string): () => string {
  let folder = "";
  beforeEach(() => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });
  return () => join(folder, "pending.db");
}

/** The store of `sessionId` in the SQLite journal at `file`, as {@link ANOTHER_PROCESS} opens it. */
export function openAsAnotherProcess(file: string, sessionId: string): Promise<PendingActionStore> {
  return PendingActionStore.open(openSqliteJournal(file), sessionId, { process: ANOTHER_PROCESS });
}

/**
 * This process's store of `sessionId` in `journal`, with a callback action "Rename A" staged and
 * written (its `reject` noting each reason in `rejected`); `heard`: what the store's listeners
 * hear from then on.
 */
export async function stagedHere(journal: PendingActionJournal, sessionId: string) {
  const here = await PendingActionStore.open(journal, sessionId);
  const rejected: string[] = [];
  const record = here.push({
    label: "Rename A",
    apply: async () => ({ content: [] }),
    reject: async (reason) => {
      rejected.push(reason);
      return undefined;
    },
  });
  await here.flush();
  const heard: PendingActionEvent[] = [];
  here.subscribe((event) => heard.push(event));
  return { here, heard, id: record.id, rejected };
}

/**
 * {@link stagedHere}, then discarded by {@link ANOTHER_PROCESS} with `pop()` (its journal
 * SQLite's at `file`, where `journal` keeps its records); this stack not read since.
 */
export async function discardedByAnotherProcess(
  journal: PendingActionJournal,
  file: string,
  sessionId: string,
) {
  const staged = await stagedHere(journal, sessionId);
  const there = await openAsAnotherProcess(file, sessionId);
  expect(there.pop()?.id).toBe(staged.id);
  await there.flush();
  return staged;
}
