import type { AgentToolResult } from "@tooldock/sdk";
import { useEffect, useState } from "preact/hooks";
import type { CallUpdate, InspectState, LogEntry } from "../inspect-protocol.js";
import { CallPanel } from "./call-panel.js";
import { EventLog } from "./event-log.js";
import { openEventStream } from "./event-stream.js";
import { pageToken } from "./page-token.js";
import { PendingPanel } from "./pending-panel.js";
import { StorePanel } from "./store-history.js";
import { DiagnosticsPanel, ToolDetails, ToolList } from "./tools-panel.js";

/** How many log entries the page keeps. */
const MAX_LOG = 1000;
/** How many partial results the page keeps per call. */
const MAX_PARTIALS = 200;

type Connection = "connecting" | "live" | "reconnecting" | "no-token";

/** The inspect page: tools and diagnostics, the call form, the pending stack and the event log, live. */
export function App() {
  const [state, setState] = useState<InspectState | undefined>();
  const [log, setLog] = useState<LogEntry[]>([]);
  const [partials, setPartials] = useState<Record<string, AgentToolResult[]>>({});
  const [connection, setConnection] = useState<Connection>("connecting");
  const [selected, setSelected] = useState<string | undefined>();

  useEffect(() => {
    const onLog = (data: string) => {
      const entry = JSON.parse(data) as LogEntry;
      // A reconnect replays the kept entries: keep each one once.
      setLog((entries) => {
        const last = entries.at(-1);
        if (last !== undefined && entry.seq <= last.seq && entries.some((seen) => seen.seq === entry.seq))
          return entries;
        return [...entries, entry].slice(-MAX_LOG);
      });
    };
    const onCallUpdate = (data: string) => {
      const update = JSON.parse(data) as CallUpdate;
      setPartials((all) => ({
        ...all,
        [update.callId]: [...(all[update.callId] ?? []), update.partial].slice(-MAX_PARTIALS),
      }));
    };
    if (pageToken === undefined) {
      setConnection("no-token");
      return;
    }
    return openEventStream("/api/events", {
      open: () => setConnection("live"),
      error: () => setConnection("reconnecting"),
      event: (name, data) => {
        if (name === "state") setState(JSON.parse(data));
        else if (name === "log") onLog(data);
        else if (name === "call-update") onCallUpdate(data);
      },
    });
  }, []);

  const tools = state?.tools ?? [];
  const tool = tools.find((candidate) => candidate.name === selected) ?? tools[0];
  return (
    <>
      <a class="skip-link" href="#call-heading">
        Skip to the call form
      </a>
      <header class="top-bar">
        <h1>tooldock inspect</h1>
        <span class="muted" title="working folder">
          {state?.cwd}
        </span>
        <span class={`connection connection-${connection}`} role="status">
          {connection === "live"
            ? "live"
            : connection === "connecting"
              ? "connecting…"
              : connection === "no-token"
                ? "no token"
                : "reconnecting…"}
        </span>
        {state !== undefined && state.pending.length > 0 && (
          <a class="pending-link" href="#pending-heading">
            {state.pending.length} pending
          </a>
        )}
        {state !== undefined && <span class="muted">v{state.version}</span>}
      </header>
      {connection === "no-token" ? (
        <p class="loading" role="alert">
          This page needs the server's token. Open the URL that <code>tooldock inspect</code> printed (it ends
          in <code>#token=…</code>).
        </p>
      ) : state === undefined ? (
        <p class="loading">Connecting to the server…</p>
      ) : (
        <main class="layout">
          <div class="column column-tools">
            <ToolList tools={tools} selected={tool?.name} onSelect={setSelected} />
            <DiagnosticsPanel diagnostics={state.diagnostics} />
          </div>
          <div class="column column-call">
            {tool === undefined ? (
              <p class="panel muted">No tool loaded.</p>
            ) : (
              <>
                <ToolDetails tool={tool} />
                <CallPanel key={tool.name} tool={tool} partials={partials} />
              </>
            )}
          </div>
          <div class="column column-side">
            <PendingPanel pending={state.pending} toolChoice={state.toolChoice} />
            {state.store !== undefined && <StorePanel store={state.store} />}
            <EventLog entries={log} />
          </div>
        </main>
      )}
    </>
  );
}
