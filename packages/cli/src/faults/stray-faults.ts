// Code a tool left running (a timer, a child process's `close` handler, a promise nobody
// awaits) can throw or reject after its call returned. Node ends the process for that by
// default; a server or a CLI run must report it and go on instead.

import { containStrayFaults, type StrayFault } from "@tooldock/runtime";
import { count } from "@tooldock/runtime/internal";

export type { StrayFault };

/** Receives stray faults while its hold is the newest. */
export type StrayFaultReporter = (fault: StrayFault) => void;

const reporters: StrayFaultReporter[] = [];
let release: (() => void) | undefined;

/**
 * Until released, an uncaught exception or an unhandled rejection does not end the process:
 * it goes to `reporter` (the newest hold's), and the process goes on. Holds nest: releasing
 * the newest gives the faults back to the one before; with none left, Node's default returns.
 * The runtime's `containStrayFaults` does the catching: a fault a tool call started is also
 * reported to that call's session, and `fault.call` names the tool.
 */
export function holdStrayFaults(reporter: StrayFaultReporter): () => void {
  const entry: StrayFaultReporter = (fault) => reporter(fault);
  reporters.push(entry);
  if (reporters.length === 1) release = containStrayFaults((fault) => reporters.at(-1)?.(fault));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    reporters.splice(reporters.indexOf(entry), 1);
    if (reporters.length === 0) {
      release?.();
      release = undefined;
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
  if (lines.length > STACK_LINES) shown.push(`    … ${count(lines.length - STACK_LINES, "more line")}`);
  const { call } = fault;
  const who =
    call === undefined
      ? "code a tool left running"
      : `code tool "${call.toolName}" left running (call ${call.toolCallId})`;
  return `${fault.kind} from ${who}: ${shown.join("\n")}`;
}
