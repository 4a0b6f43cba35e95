// Code a tool left running (a timer, a child process's `close` handler, a promise nobody
// awaits) can throw or reject after its call returned. Node ends the process for that by
// default; a server or a CLI run must report it and go on instead.

import { reportStrayFault, type StrayFault } from "@tooldock/runtime";

export type { StrayFault };

/** Receives stray faults while its hold is the newest. */
export type StrayFaultReporter = (fault: StrayFault) => void;

// Captured when this module is evaluated, before any tool module can replace them.
const on = process.on.bind(process);
const off = process.off.bind(process);

const reporters: StrayFaultReporter[] = [];

function report(kind: StrayFault["kind"], error: unknown): void {
  const reporter = reporters.at(-1);
  try {
    // The call whose code threw, when a tool call started it: its session gets a
    // `tool-call-fault` event, and the report names the tool.
    const call = reportStrayFault(kind, error);
    reporter?.(call === undefined ? { kind, error } : { kind, error, call });
  } catch {
    // A reporter that fails (a closed stream) must not turn the fault back into a crash.
  }
}

const onException = (error: unknown) => report("uncaught exception", error);
const onRejection = (error: unknown) => report("unhandled rejection", error);

/**
 * Until released, an uncaught exception or an unhandled rejection does not end the process:
 * it goes to `reporter` (the newest hold's), and the process goes on. Holds nest: releasing
 * the newest gives the faults back to the one before; with none left, Node's default returns.
 */
export function holdStrayFaults(reporter: StrayFaultReporter): () => void {
  const entry: StrayFaultReporter = (fault) => reporter(fault);
  reporters.push(entry);
  if (reporters.length === 1) {
    on("uncaughtException", onException);
    on("unhandledRejection", onRejection);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    reporters.splice(reporters.indexOf(entry), 1);
    if (reporters.length === 0) {
      off("uncaughtException", onException);
      off("unhandledRejection", onRejection);
    }
  };
}

/** Most lines of a stack trace a report shows. */
const STACK_LINES = 12;

/** What a fault says: an error's stack (cut to its first lines), or the value as text. */
export function describeStrayFault(fault: StrayFault): string {
  const { error } = fault;
  let text: string;
  try {
    text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  } catch {
    text = "(a value that cannot be shown)";
  }
  const lines = text.split("\n");
  const shown = lines.slice(0, STACK_LINES);
  if (lines.length > STACK_LINES) shown.push(`    … ${lines.length - STACK_LINES} more line(s)`);
  const { call } = fault;
  const who =
    call === undefined
      ? "code a tool left running"
      : `code tool "${call.toolName}" left running (call ${call.toolCallId})`;
  return `${fault.kind} from ${who}: ${shown.join("\n")}`;
}
