import type { ServerResponse } from "node:http";
import type { InspectEvents, InspectState, LogEntry, LogKind } from "./inspect-protocol.js";
import { cut } from "./session-log.js";

/** Longest `summary` of a log entry, in characters (a detail is cut at 4,000). */
const MAX_SUMMARY = 1_000;

/** Options of {@link EventHub}. */
export interface EventHubOptions {
  /** Default `Date.now`. */
  now?: () => number;
  /** How many log entries are kept and replayed to a page that connects. Default 500. */
  maxLog?: number;
  /** A comment line every this many ms keeps idle connections open through proxies. Default 15000. */
  heartbeatMs?: number;
  /**
   * Bytes a page may leave unread before its stream is closed. Default 8 MiB. A page that
   * stopped reading (a stalled tab, a paused client) would otherwise keep every event in this
   * process's memory; closed, the page reconnects and gets the state and the log again.
   */
  maxBufferedBytes?: number;
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
  readonly #maxBuffered: number;
  readonly #heartbeat: NodeJS.Timeout;
  #seq = 0;

  constructor(options: EventHubOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxLog = options.maxLog ?? 500;
    this.#maxBuffered = options.maxBufferedBytes ?? 8 * 1024 * 1024;
    this.#heartbeat = setInterval(() => this.#broadcast(": ping\n\n"), options.heartbeatMs ?? 15_000);
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
    this.#broadcast(frame(name, data));
  }

  /**
   * Adds a line to the event log and sends it. The summary and the detail are cut (1,000 and
   * 4,000 characters): the log is kept and replayed to every page that connects, and a tool
   * can log anything through `pi.logger`.
   */
  log(kind: LogKind, summary: string, detail?: string): LogEntry {
    this.#seq += 1;
    const entry: LogEntry = { seq: this.#seq, at: this.#now(), kind, summary: cut(summary, MAX_SUMMARY) };
    if (detail !== undefined && detail !== "") entry.detail = cut(detail);
    this.#log.push(entry);
    if (this.#log.length > this.#maxLog) this.#log.splice(0, this.#log.length - this.#maxLog);
    this.send("log", entry);
    return entry;
  }

  /** The kept log entries, oldest first. */
  entries(): LogEntry[] {
    return [...this.#log];
  }

  /** Writes `text` to every page; a page that left more than `maxBufferedBytes` unread is closed. */
  #broadcast(text: string): void {
    for (const client of this.#clients) {
      if (client.writableLength > this.#maxBuffered) {
        this.#clients.delete(client);
        client.destroy();
        continue;
      }
      client.write(text);
    }
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
