import { quoted } from "@tooldock/runtime/internal";

/** What {@link whileResolving} says when Ctrl-C comes during an action's apply or reject. */
export interface ResolveInterrupt {
  /** The command's name, which starts each line (`tooldock pending`). */
  command: string;
  verb: "apply" | "discard";
  label: string;
  /**
   * Where the action is kept and how to discard it later (`tooldock pending discard …`), for a
   * durable store; none when the action lives in this process only.
   */
  store?: { url: string; discard: string };
  /** Prints a line for the user (escaped for the terminal by the caller). */
  write(line: string): void;
}

/**
 * Runs `resolving` (a `resolve` call) with Ctrl-C taken over: an action's `apply` or `reject`
 * is given no abort signal, and ending the process in the middle would leave a stored action
 * interrupted (discard only) and files half changed, without a word (Node's default for
 * SIGINT). A first Ctrl-C says so and waits for the callback to end (at most its deadline); a
 * second ends the process at once (exit code 130), after saying what is left and what to do.
 * The command's own SIGINT listeners are set aside meanwhile and put back after.
 */
export async function whileResolving<T>(
  resolving: () => Promise<T>,
  interrupt: ResolveInterrupt,
): Promise<T> {
  const { command, verb, label, store, write } = interrupt;
  const callback = verb === "apply" ? "apply" : "reject";
  const named = quoted(label);
  const setAside = process.listeners("SIGINT");
  process.removeAllListeners("SIGINT");
  let asked = false;
  const onSigint = () => {
    if (!asked) {
      asked = true;
      write(
        `${command}: Ctrl-C during the ${callback} of ${named}, which cannot be stopped cleanly: waiting for it to end ` +
          `(at most its deadline). Press Ctrl-C again to stop at once; what it changed would then be unknown.`,
      );
      return;
    }
    write(`${command}: stopped during the ${callback} of ${named}: ${leftAfterStop(verb, store)}`);
    process.exit(130);
  };
  process.on("SIGINT", onSigint);
  try {
    return await resolving();
  } finally {
    process.off("SIGINT", onSigint);
    for (const listener of setAside) process.on("SIGINT", listener as () => void);
  }
}

/** What a second Ctrl-C leaves: a stored record is taken before its apply, discarded before its reject. */
export function leftAfterStop(verb: "apply" | "discard", store: ResolveInterrupt["store"]): string {
  if (verb === "discard")
    return `what its reject undid is unknown; the action is discarded${store === undefined ? "" : ` in ${store.url}`} all the same. Check its files.`;
  if (store === undefined)
    return "what it changed is unknown, and the action, kept in this process only, is gone. Check its files.";
  return `what it changed is unknown. The action stays in ${store.url}, marked interrupted (it can only be discarded): check its files, then run ${store.discard}`;
}
