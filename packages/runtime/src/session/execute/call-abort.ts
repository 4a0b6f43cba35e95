import { failed, type StepOutcome } from "./tool-call.js";
import { toolCallMessages } from "./tool-call-messages.js";

/** What can stop one call before its tool settles. */
export interface CallAbortOptions {
  name: string;
  /** The host's signal for this call. */
  hostSignal: AbortSignal | undefined;
  /** Aborted when the session is disposed. */
  sessionSignal: AbortSignal;
  /** `Infinity`: no deadline. */
  timeoutMs: number;
}

/** One call's abort wiring. */
export interface CallAbort {
  /** The tool's `signal` comes from it; `ctx.abort()` aborts it. */
  controller: AbortController;
  /** Settles with the error result for the model once the controller aborts, whoever aborted it. */
  stopped: Promise<StepOutcome<never>>;
  /** Removes the listeners and the timer; call it when the call ends. */
  release(): void;
}

/**
 * A call's own `AbortController`, aborted by the host's signal, by `dispose()` or at the
 * deadline (reason: a `TimeoutError` `DOMException`, as `AbortSignal.timeout` gives). The
 * result says which of them stopped the tool.
 */
export function createCallAbort(options: CallAbortOptions): CallAbort {
  const { name, hostSignal, sessionSignal, timeoutMs } = options;
  const controller = new AbortController();
  let cause: "aborted" | "timeout" | "disposed" = "aborted";
  const messageFor = (why: typeof cause) => {
    if (why === "timeout") return toolCallMessages.timedOut(name, timeoutMs);
    if (why === "disposed") return toolCallMessages.stoppedByDispose(name);
    return toolCallMessages.aborted(name, controller.signal.reason);
  };
  const stopped = new Promise<StepOutcome<never>>((resolve) => {
    controller.signal.addEventListener("abort", () => resolve(failed(messageFor(cause))), { once: true });
  });

  const onHostAbort = () => controller.abort(hostSignal?.reason);
  const onDispose = () => {
    cause = "disposed";
    controller.abort(new Error("The session was disposed."));
  };
  hostSignal?.addEventListener("abort", onHostAbort, { once: true });
  sessionSignal.addEventListener("abort", onDispose, { once: true });
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(() => {
        cause = "timeout";
        const message = `Tool "${name}" did not finish within ${timeoutMs} ms.`;
        controller.abort(new DOMException(message, "TimeoutError"));
      }, timeoutMs)
    : undefined;

  const release = () => {
    hostSignal?.removeEventListener("abort", onHostAbort);
    sessionSignal.removeEventListener("abort", onDispose);
    if (timer !== undefined) clearTimeout(timer);
  };
  return { controller, stopped, release };
}
