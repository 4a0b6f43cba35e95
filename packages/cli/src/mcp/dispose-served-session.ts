import type { Session } from "@tooldock/runtime";
import { count } from "@tooldock/runtime/internal";
import { DISCARD_BOUND_MS } from "../call/run-tool-call.js";
import { settleWithin } from "../call/settle-within.js";

/**
 * Disposes a served session: says which pending actions are discarded (their `reject` runs,
 * through `session.dispose()`), and waits at most {@link DISCARD_BOUND_MS} for it, so a
 * callback that never settles cannot keep the server up. `prefix` starts each line
 * (`"session 1a2b3c4d: "` for one of many).
 */
export async function disposeServedSession(
  session: Session,
  say: (text: string) => void,
  prefix = "",
): Promise<void> {
  const pending = session.pending.list();
  if (pending.length > 0) {
    const labels = pending.map((record) => record.label).join("; ");
    say(`${prefix}discarding ${count(pending.length, "pending action")}: ${labels}`);
  }
  if (!(await settleWithin(session.dispose(), DISCARD_BOUND_MS))) {
    say(
      `${prefix}discarding the pending actions (their reject) or the tools' shutdown did not finish within ${DISCARD_BOUND_MS} ms; ` +
        "stopping without waiting for it.",
    );
  }
}
