/**
 * What a module did outside its guarded steps while its load batch ran: `process.exit` calls from
 * timers or callbacks it started, promises it left rejected with no handler, the timers it made.
 * Filled in through the module's async context (timers, promise callbacks and event handlers
 * started by its import or factory carry it), read at the end of the batch.
 */
export interface ModuleFaults {
  /**
   * Calls that would have ended the process (`process.exit(3)`, `process.kill(…)`, …), made
   * after the step that started them had ended, as the diagnostic names them.
   */
  lateExits: string[];
  /** Reasons of the module's promises that were rejected with no handler. */
  rejections: unknown[];
  /** Every timer the module created (`setTimeout`, `setInterval`). */
  timers: Set<NodeJS.Timeout>;
}

export function createModuleFaults(): ModuleFaults {
  return { lateExits: [], rejections: [], timers: new Set() };
}

/** Timers of a module that are still pending and keep the process alive (not fired, cleared or `unref`ed). */
export function activeTimers(faults: ModuleFaults): number {
  // `_destroyed` is set once a timer has fired (one-shot) or was cleared; Node has no public flag.
  const pending = (timer: NodeJS.Timeout) => (timer as { _destroyed?: boolean })._destroyed !== true;
  return [...faults.timers].filter((timer) => pending(timer) && timer.hasRef()).length;
}
