import type { ServerResponse } from "node:http";
import type { InspectEvents, InspectState, LogEntry, LogKind } from "./inspect-protocol.js";

/** Options of {@link EventHub}. */
export interface EventHubOptions {
  /** Default `Date.now`. */
  now?: () => number;
  /** How many log entries are kept and replayed to a page that connects. Default 500. */
  maxLog?: number;
  /** A comment line every this many ms keeps idle connections open through proxies. Default 15000. */
  heartbeatMs?: number;
}

/**
 * The server-sent events of `GET /api/events`: every connected page gets each `state`, `log`
 * and `call-update` event. A page that connects gets the current state and the latest log
 * entries first, so opening the page late (or reconnecting) loses nothing recent.
 */
export class EventHub {
  readonly #clients = new Set<ServerResponse>();
  readonly #log: LogEntry[] = [];
  readonly #now: () => number;
  readonly #maxLog: number;
  readonly #heartbeat: NodeJS.Timeout;
  #seq = 0;

  constructor(options: EventHubOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxLog = options.maxLog ?? 500;
    this.#heartbeat = setInterval(() => {
      for (const client of this.#clients) client.write(": ping\n\n");
    }, options.heartbeatMs ?? 15_000);
    this.#heartbeat.unref();
  }

  /** How many pages are connected. */
  get clients(): number {
    return this.#clients.size;
  }

  /** Turns `response` into an event stream: headers, the state, the log so far; then every event. */
  attach(response: ServerResponse, state: InspectState): void {
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      "x-content-type-options": "nosniff",
    });
    response.write("retry: 1000\n\n");
    response.write(frame("state", state));
    for (const entry of this.#log) response.write(frame("log", entry));
    this.#clients.add(response);
    response.on("close", () => this.#clients.delete(response));
  }

  /** Sends one event to every connected page. */
  send<Name extends keyof InspectEvents>(name: Name, data: InspectEvents[Name]): void {
    if (this.#clients.size === 0) return;
    const text = frame(name, data);
    for (const client of this.#clients) client.write(text);
  }

  /** Adds a line to the event log and sends it. */
  log(kind: LogKind, summary: string, detail?: string): LogEntry {
    this.#seq += 1;
    const entry: LogEntry = { seq: this.#seq, at: this.#now(), kind, summary };
    if (detail !== undefined && detail !== "") entry.detail = detail;
    this.#log.push(entry);
    if (this.#log.length > this.#maxLog) this.#log.splice(0, this.#log.length - this.#maxLog);
    this.send("log", entry);
    return entry;
  }

  /** The kept log entries, oldest first. */
  entries(): LogEntry[] {
    return [...this.#log];
  }

  /** Ends every stream and stops the heartbeat. */
  close(): void {
    clearInterval(this.#heartbeat);
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }
}

/** One event in the `text/event-stream` format; JSON has no raw line breaks, so one `data:` line. */
function frame(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}
