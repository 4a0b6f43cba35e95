import type { Server } from "node:http";

/** Bytes of request bodies one server holds at once, all requests together (32 MiB). */
export const DEFAULT_BODY_BUDGET_BYTES = 32 * 1024 * 1024;
/** Most connections one server keeps open at once. */
export const MAX_CONNECTIONS = 256;
/** How long a client has to send a whole request (headers and body); a stream it reads may last. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The request-body bytes a server may hold at once, shared by its requests: one body is
 * bounded by its reader, and this bounds their number (200 unfinished bodies of 4 MiB grew a
 * server by ~770 MB).
 */
export class BodyBudget {
  #free: number;

  constructor(bytes: number = DEFAULT_BODY_BUDGET_BYTES) {
    this.#free = bytes;
  }

  /** Takes `bytes`; false (and nothing taken) when fewer are free. */
  take(bytes: number): boolean {
    if (bytes > this.#free) return false;
    this.#free -= bytes;
    return true;
  }

  /** Gives back `bytes` taken before. */
  give(bytes: number): void {
    this.#free += bytes;
  }
}

/**
 * The limits both local servers set on their `http.Server`: at most {@link MAX_CONNECTIONS}
 * connections (more are closed at once), and {@link REQUEST_TIMEOUT_MS} to send a request
 * (a client that trickles its headers or body is cut off, answered `408`).
 */
export function limitServer(server: Server): void {
  server.maxConnections = MAX_CONNECTIONS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = Math.min(server.headersTimeout, REQUEST_TIMEOUT_MS);
}
