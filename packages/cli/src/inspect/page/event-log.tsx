import { useEffect, useRef, useState } from "preact/hooks";
import type { LogEntry, LogKind } from "../inspect-protocol.js";

const KINDS: readonly LogKind[] = [
  "call",
  "result",
  "push",
  "resolution",
  "reminder",
  "reload",
  "log",
  "warning",
  "fault",
];

/** The live event log: calls, results, pushes, resolutions, reminders, reloads, tool logs and faults. */
export function EventLog(props: { entries: readonly LogEntry[] }) {
  const [kind, setKind] = useState<LogKind | "">("");
  const list = useRef<HTMLDivElement>(null);
  const shown = kind === "" ? props.entries : props.entries.filter((entry) => entry.kind === kind);
  useEffect(() => {
    const element = list.current;
    if (element !== null) element.scrollTop = element.scrollHeight;
  }, [shown.length]);
  return (
    <section class="panel event-log" aria-labelledby="log-heading">
      <h2 id="log-heading">
        Event log <span class="count">{props.entries.length}</span>
      </h2>
      <label for="log-kind">Show</label>{" "}
      <select
        id="log-kind"
        value={kind}
        onChange={(event) => setKind(event.currentTarget.value as LogKind | "")}
      >
        <option value="">every event</option>
        {KINDS.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <div
        class="log-entries"
        ref={list}
        role="log"
        data-testid="event-log"
        aria-label="Events, oldest first"
      >
        <ol>
          {shown.map((entry) => (
            <li key={entry.seq} class={`log-entry log-${entry.kind}`}>
              <time dateTime={new Date(entry.at).toISOString()}>
                {new Date(entry.at).toLocaleTimeString()}
              </time>{" "}
              <span class="badge">{entry.kind}</span> {entry.summary}
              {entry.detail !== undefined && (
                <details>
                  <summary>more</summary>
                  <pre>{entry.detail}</pre>
                </details>
              )}
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
