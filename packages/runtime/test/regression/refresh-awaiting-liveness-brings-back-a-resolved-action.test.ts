import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  openSqliteJournal,
  type PendingActionEvent,
  PendingActionStore,
  type ProcessIdentity,
  Session,
} from "../../src/index.js";
import { journalWith } from "../journal-wrapper.js";

/**
 * Found by a second read of the event a callback action discarded elsewhere sends: a read of
 * the durable store that met another process's `applying` record waited for the store's
 * liveness answer (PostgreSQL's lock) with the stack it had read before the wait. An action
 * this process cleared, popped or applied during that wait came back on the stack, and the
 * next read sent a second event for it ("discarded by another process", after it was applied
 * here).
 */
let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-refresh-liveness-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** A process on another host, applying an action of the same session. */
const applier: ProcessIdentity = { host: "elsewhere.example", pid: 4242, token: "applier" };

/** A liveness question the store will ask: `asked` once it asks, `answer` to answer it. */
interface Question {
  asked: Promise<void>;
  tellAsked: () => void;
  answer: (alive: boolean) => void;
}

/**
 * A store of session s1 holding one callback action, "Rename A", staged before another
 * process's record it is applying; `ask()` makes the next liveness question wait until
 * `answer()`, and resolves once the store asks it.
 */
async function storeWaitingForLiveness() {
  const file = join(folder, "pending.db");
  let waiting: Question | undefined;
  const journal = journalWith(openSqliteJournal(file), {
    processAlive: () => {
      const question = waiting;
      if (question === undefined) return true;
      waiting = undefined;
      return new Promise<boolean>((resolve) => {
        question.answer = resolve;
        question.tellAsked();
      });
    },
  });
  const here = await PendingActionStore.open(journal, "s1");
  const heard: PendingActionEvent[] = [];
  here.subscribe((event) => heard.push(event));
  const record = here.push({ label: "Rename A", apply: async () => ({ content: [] }) });
  await here.flush();
  const raw = openSqliteJournal(file);
  await raw.stage(
    {
      id: "held-there",
      sessionId: "s1",
      state: "pending",
      label: "Rename B",
      sourceToolName: "rename_preview",
      details: undefined,
      createdAt: 1,
      form: "data",
      handler: "rename",
      payload: null,
      owner: applier,
    },
    applier,
  );
  expect(await raw.move("held-there", { from: ["pending"], to: "applying", owner: applier })).toBe(true);
  await raw.close();
  const ask = (): Question => {
    const question: Question = { asked: Promise.resolve(), tellAsked: () => {}, answer: () => {} };
    question.asked = new Promise<void>((resolve) => {
      question.tellAsked = resolve;
    });
    waiting = question;
    return question;
  };
  return { here, heard, id: record.id, ask };
}

const left = (heard: PendingActionEvent[], id: string) =>
  heard
    .filter((event) => event.record.id === id && event.type !== "action-pending")
    .map((event) => event.type);

describe("a refresh waiting for another process's liveness", () => {
  it("does not bring back an action cleared meanwhile", async () => {
    const { here, heard, id, ask } = await storeWaitingForLiveness();
    const question = ask();
    const refreshing = here.refresh();
    await question.asked;
    await here.clear("not wanted");
    question.answer(true);
    await refreshing;
    expect(here.list()).toEqual([]);
    await here.refresh();
    expect(left(heard, id)).toEqual(["action-discarded"]);
  });

  it("does not bring back an action popped meanwhile", async () => {
    const { here, heard, id, ask } = await storeWaitingForLiveness();
    const question = ask();
    const refreshing = here.refresh();
    await question.asked;
    expect(here.pop()?.id).toBe(id);
    question.answer(true);
    await refreshing;
    expect(here.list()).toEqual([]);
    await here.refresh();
    expect(left(heard, id)).toEqual(["action-discarded"]);
  });

  it("does not bring back an action this process applied meanwhile", async () => {
    const { here, heard, id, ask } = await storeWaitingForLiveness();
    const session = new Session({ sessionId: "s1", pending: here });
    const question = ask();
    const refreshing = here.refresh();
    await question.asked;
    const applied = await session.execute({
      toolCallId: "r1",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(applied.isError).not.toBe(true);
    question.answer(true);
    await refreshing;
    expect(here.list()).toEqual([]);
    await here.refresh();
    expect(left(heard, id)).toEqual(["action-applied"]);
    await session.dispose();
  });
});
