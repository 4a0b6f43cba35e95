import type { Session } from "@tooldock/runtime";
import type { CustomTool } from "@tooldock/sdk";

/**
 * Calls `onChange` whenever the set of tools the session offers (`list()`, by default
 * `activeTools()`) differs from the last one seen. The set is compared by name, so a pending action staged while
 * another is already pending does not count as a change.
 *
 * Checks run on every pending-action event and whenever `check()` is called (after each
 * tool call), so a change made any other way is seen by the next call.
 */
export interface ActiveToolsWatch {
  check(): void;
  /** Takes the current set as seen, without calling `onChange` (the caller announced it). */
  sync(): void;
  stop(): void;
}

export function watchActiveTools(
  session: Session,
  onChange: () => void,
  list: () => CustomTool[] = () => session.activeTools(),
): ActiveToolsWatch {
  let last = signatureOf(list());
  const check = () => {
    const next = signatureOf(list());
    if (next === last) return;
    last = next;
    onChange();
  };
  const unsubscribe = session.pending.subscribe(check);
  const sync = () => {
    last = signatureOf(list());
  };
  return { check, sync, stop: unsubscribe };
}

function signatureOf(tools: CustomTool[]): string {
  return tools
    .map((tool) => tool.name)
    .sort()
    .join("\n");
}
