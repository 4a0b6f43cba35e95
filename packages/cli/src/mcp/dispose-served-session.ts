import type { Session } from "@tooldock/runtime";
import { count, settledWithin } from "@tooldock/runtime/internal";
import { DISCARD_BOUND_MS } from "../call/run-tool-call.js";
import { outlivesProcess } from "../store/store-option.js";
import { messageOf } from "./message-of.js";

/**
 * Disposes a served session: says which pending actions are discarded (their `reject` runs,
 * through `session.dispose()`) and, with a durable store (`stored`, read again first), which stay there, and
 * waits at most {@link DISCARD_BOUND_MS} for it, so a callback that never settles cannot keep
 * the server up. `prefix` starts each line (`"session 1a2b3c4d: "` for one of many);
 * `stored`: the session is one of a durable store.
 */
export async function disposeServedSession(
  session: Session,
  say: (text: string) => void,
  options: { prefix?: string; stored?: boolean } = {},
): Promise<void> {
  const { prefix = "" } = options;
  // Another process may have resolved some since this stack was last read (another server on
  // the same session, `tooldock pending`): what is said kept must be what the store keeps.
  if (options.stored === true)
    await session.pending
      .refresh()
      .catch((error: unknown) =>
        say(
          `${prefix}the durable store could not be read before stopping (${messageOf(error)}); ` +
            "what follows is the pending stack as this server last read it.",
        ),
      );
  const pending = session.pending.list();
  const kept = options.stored === true ? pending.filter(outlivesProcess) : [];
  const discarded = pending.filter((record) => !kept.includes(record));
  const labels = (records: typeof pending) => records.map((record) => record.label).join("; ");
  if (kept.length > 0)
    say(`${prefix}keeping ${count(kept.length, "pending action")} in the store: ${labels(kept)}`);
  if (discarded.length > 0)
    say(`${prefix}discarding ${count(discarded.length, "pending action")}: ${labels(discarded)}`);
  if (!(await settledWithin(session.dispose(), DISCARD_BOUND_MS))) {
    say(
      `${prefix}discarding the pending actions (their reject) or the tools' shutdown did not finish within ${DISCARD_BOUND_MS} ms; ` +
        "stopping without waiting for it.",
    );
  }
}
