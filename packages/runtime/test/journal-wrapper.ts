import type { PendingActionJournal } from "../src/index.js";

/**
 * `journal` with some of its methods replaced (a store that fails a write, answers a read late,
 * tells another liveness): every other method is the journal's own, bound to it (its private
 * fields need their own `this`).
 */
export function journalWith(
  journal: PendingActionJournal,
  overrides: Partial<PendingActionJournal>,
): PendingActionJournal {
  const bound: Record<string, unknown> = {};
  for (const key of Object.getOwnPropertyNames(Object.getPrototypeOf(journal))) {
    const value = (journal as unknown as Record<string, unknown>)[key];
    if (key !== "constructor" && typeof value === "function") bound[key] = value.bind(journal);
  }
  return { ...(bound as unknown as PendingActionJournal), ...overrides };
}
