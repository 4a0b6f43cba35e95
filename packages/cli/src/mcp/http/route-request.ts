import type { IncomingMessage, ServerResponse } from "node:http";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { BodyBudget } from "../../http/body-budget.js";
import { readJsonBody } from "../../http/read-json-body.js";
import { replyError } from "./http-endpoint.js";
import type { HttpSessionTable } from "./http-session-table.js";
import { checkRequest, type RequestGuard } from "./request-guard.js";

/** The one path the server answers on. */
export const MCP_HTTP_PATH = "/mcp";
/** Largest request body read, as the SDK's transport bounds the ones it reads itself (4 MiB). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Most sessions open at once; an `initialize` beyond is answered `503`. */
export const MAX_HTTP_SESSIONS = 100;

/** A session as the router sees it: its id once initialized (`""` before) and its transport. */
export interface RoutedSession {
  id: string;
  transport: {
    handleRequest(request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): Promise<void>;
  };
}

/** What {@link routeRequest} works with. */
export interface RouteContext<S extends RoutedSession> {
  guard: RequestGuard;
  sessions: HttpSessionTable<S>;
  /** The request-body bytes the server may hold at once. */
  bodies: BodyBudget;
  /** Sessions made and not yet closed, initializing ones included. */
  openCount(): number;
  openSession(): Promise<S>;
  closeServed(served: S, why: string): void;
  /** Whether the server began to stop: every request is refused from then on (`503`). */
  stopping(): boolean;
}

/**
 * Answers one HTTP request of `tooldock mcp --http`: {@link checkRequest} first (`403`, or
 * `401` on the endpoint), then `404` off `/mcp`; a request with `Mcp-Session-Id` goes to that
 * session's transport (`404` when it ended or expired), counted as a connection until it
 * closes; one without must be a POSTed `initialize`, which opens a session (at most
 * {@link MAX_HTTP_SESSIONS}). Every POST's body is read here, bounded by `readJsonBody` one by
 * one and by the server's `bodies` together, and handed to the transport parsed.
 */
export async function routeRequest<S extends RoutedSession>(
  request: IncomingMessage,
  response: ServerResponse,
  context: RouteContext<S>,
): Promise<void> {
  const { sessions } = context;
  const refusal = checkRequest(request.headers, context.guard);
  const onPath = new URL(request.url ?? "/", "http://localhost").pathname === MCP_HTTP_PATH;
  // Another path is a 404 even without the token: a client that looks for OAuth metadata
  // (/.well-known/…) on a 401 learns there is none, instead of a second 401.
  if (refusal !== undefined && (refusal.status === 403 || onPath)) {
    const challenge: Record<string, string> =
      refusal.status === 401 ? { "WWW-Authenticate": 'Bearer realm="tooldock"' } : {};
    return replyError(response, refusal.status, -32000, refusal.message, challenge);
  }
  if (!onPath) return replyError(response, 404, -32000, `Not Found: the MCP endpoint is ${MCP_HTTP_PATH}`);
  if (context.stopping()) return refuseStopping(response);
  const sessionId = request.headers["mcp-session-id"];
  if (typeof sessionId === "string") {
    const served = sessions.get(sessionId);
    if (served === undefined) {
      return replyError(
        response,
        404,
        -32001,
        "Session not found: it was ended or expired (its pending actions were discarded); start a new one with initialize",
      );
    }
    sessions.hold(sessionId, response);
    if (request.method !== "POST") return served.transport.handleRequest(request, response);
    const posted = await readJsonBody(request, MAX_BODY_BYTES, context.bodies);
    if (!posted.ok)
      return replyError(response, posted.status, posted.code, posted.message, { Connection: "close" });
    if (context.stopping()) return refuseStopping(response);
    return served.transport.handleRequest(request, response, posted.value);
  }
  if (request.method !== "POST")
    return replyError(
      response,
      400,
      -32000,
      "Bad Request: no Mcp-Session-Id header; start with a POST of initialize",
    );
  const body = await readJsonBody(request, MAX_BODY_BYTES, context.bodies);
  if (!body.ok) return replyError(response, body.status, body.code, body.message, { Connection: "close" });
  if (!isInitializeRequest(body.value)) {
    return replyError(
      response,
      400,
      -32600,
      "Bad Request: no Mcp-Session-Id header; a session starts with an initialize request",
    );
  }
  if (context.openCount() >= MAX_HTTP_SESSIONS) {
    return replyError(
      response,
      503,
      -32000,
      `Service Unavailable: ${MAX_HTTP_SESSIONS} sessions are open; end one (DELETE) or wait for idle ones to expire`,
    );
  }
  // The body may have arrived after the server began to stop: no session opens then.
  if (context.stopping()) return refuseStopping(response);
  const served = await context.openSession();
  await served.transport.handleRequest(request, response, body.value);
  // An initialize the transport refused opened no session: drop what was made for it.
  if (served.id === "") context.closeServed(served, "initialize refused");
}

/** The answer to a request that arrives once the server began to stop: no call runs any more. */
function refuseStopping(response: ServerResponse): void {
  replyError(response, 503, -32000, "Service Unavailable: the server is stopping", { Connection: "close" });
}
