import type { IncomingMessage, ServerResponse } from "node:http";
import { TooldockError } from "@tooldock/sdk";
import { BodyBudget } from "../http/body-budget.js";
import { readJsonBody } from "../http/read-json-body.js";
import { secretsMatch } from "../http/secrets-match.js";
import { CALL_ID_IN_USE, type InspectController } from "./inspect-controller.js";
import type { CallRequest, ResolveRequest } from "./inspect-protocol.js";
import type { PageAssets } from "./page-assets.js";
import { hostChecker, sameOrigin } from "./request-guard.js";
import { messageOf } from "./session-log.js";

/** The largest request body taken, in bytes (arguments of a call); larger is answered 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** How a call id looks (chosen by the page). */
const CALL_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Options of {@link createRequestHandler}. */
export interface RequestHandlerOptions {
  controller: InspectController;
  assets: PageAssets;
  token: string;
  /** The address the server listens on (`--host`) and its port, for the `Host` check. */
  bindHost: string;
  port: number;
}

/** Sent with every answer: the page runs only its own script and is never framed or cached. */
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
} as const;

/**
 * The inspect server's request handler. Every request is checked before anything else: its
 * `Host` must be the address the server listens on (DNS rebinding). The page's own files (no
 * secret in them) are served to anyone who passes that check; every other request (the API,
 * every POST) must carry the token as `Authorization: Bearer <token>`. The token never travels in a cookie
 * (a browser sends cookies for 127.0.0.1 to every port, another local user's server
 * included) nor in a query: the page reads it from the URL's fragment, which the browser
 * sends nowhere. Requests that change something must be JSON and, from a browser, same-origin.
 */
export function createRequestHandler(options: RequestHandlerOptions) {
  const hostAllowed = hostChecker(options.bindHost, options.port);
  const bodies = new BodyBudget();
  return (request: IncomingMessage, response: ServerResponse): void => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: messageOf(error) });
      else response.end();
    });
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const host = request.headers.host;
    if (!hostAllowed(host)) {
      sendText(
        response,
        403,
        `tooldock inspect: refused a request for host "${host ?? ""}": this server answers only at the address it printed. Open that URL.`,
      );
      return;
    }
    const url = new URL(request.url ?? "/", "http://inspect.invalid");
    const pageFile =
      (request.method === "GET" || request.method === "HEAD") && !url.pathname.startsWith("/api/");
    if (!pageFile && !authorized(request)) {
      refuse(response);
      return;
    }
    await route(request, response, url.pathname);
  }

  function authorized(request: IncomingMessage): boolean {
    // The scheme is case-insensitive (RFC 9110), as the MCP HTTP server reads it.
    const bearer = /^Bearer[ ]+(\S+)[ ]*$/i.exec(request.headers.authorization ?? "")?.[1];
    return bearer !== undefined && secretsMatch(bearer, options.token);
  }

  async function route(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const { controller } = options;
    if (request.method === "GET" || request.method === "HEAD") {
      if (path === "/api/state") return sendJson(response, 200, controller.state());
      if (path === "/api/events") {
        for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
        controller.attachEvents(response);
        return;
      }
      const asset = await options.assets.read(path);
      if (asset !== undefined) {
        response.writeHead(200, { ...SECURITY_HEADERS, "content-type": asset.type });
        response.end(request.method === "HEAD" ? undefined : asset.body);
        return;
      }
      return sendJson(response, 404, { error: `Nothing is served at ${path}. The page is at /.` });
    }
    if (request.method !== "POST") {
      return sendJson(response, 405, {
        error: `${request.method ?? "This method"} is not used here; GET or POST.`,
      });
    }
    if (!sameOrigin(request.headers.origin, request.headers.host)) {
      return sendJson(response, 403, { error: "Refused a request from another site." });
    }
    if (!/^application\/json\b/i.test(request.headers["content-type"] ?? "")) {
      return sendJson(response, 415, {
        error: "Send the request body as JSON (Content-Type: application/json).",
      });
    }
    const body = await readJsonBody(request, MAX_BODY_BYTES, bodies);
    if (!body.ok) {
      return sendJson(
        response,
        body.status,
        { error: `The request body ${body.reason}.` },
        { connection: "close" },
      );
    }
    const value = body.value;
    switch (path) {
      case "/api/call": {
        const call = callRequestOf(value);
        if (typeof call === "string") return sendJson(response, 400, { error: call });
        try {
          return sendJson(response, 200, await controller.call(call));
        } catch (error) {
          if (TooldockError.isInstance(error) && error.code === CALL_ID_IN_USE)
            return sendJson(response, 409, { error: error.message });
          throw error;
        }
      }
      case "/api/cancel": {
        const callId = isRecord(value) ? value.callId : undefined;
        if (typeof callId !== "string")
          return sendJson(response, 400, { error: "Give the callId to cancel." });
        return sendJson(response, 200, { cancelled: controller.cancel(callId) });
      }
      case "/api/resolve": {
        const resolve = resolveRequestOf(value);
        if (typeof resolve === "string") return sendJson(response, 400, { error: resolve });
        return sendJson(response, 200, await controller.resolve(resolve));
      }
      case "/api/validate": {
        if (!isRecord(value) || typeof value.tool !== "string")
          return sendJson(response, 400, { error: 'Give { "tool": name, "params": arguments }.' });
        return sendJson(response, 200, controller.validate({ tool: value.tool, params: value.params }));
      }
      default:
        return sendJson(response, 404, { error: `Nothing is served at POST ${path}.` });
    }
  }
}

function refuse(response: ServerResponse): void {
  sendText(
    response,
    401,
    "tooldock inspect: this server needs its token (Authorization: Bearer <token>). Open the URL that `tooldock inspect` printed (it ends in #token=…).",
  );
}

function callRequestOf(value: unknown): CallRequest | string {
  if (!isRecord(value)) return 'Give { "callId", "tool", "params" }.';
  const { callId, tool, params } = value;
  if (typeof callId !== "string" || !CALL_ID.test(callId))
    return "callId must be 1 to 64 letters, digits, _ or -.";
  if (typeof tool !== "string" || tool === "") return "tool must be the name of a tool.";
  return { callId, tool, params: params ?? {} };
}

function resolveRequestOf(value: unknown): ResolveRequest | string {
  // The resolve tool checks the reason itself (and answers with an error result); only the shape is checked here.
  if (!isRecord(value) || (value.action !== "apply" && value.action !== "discard"))
    return 'action must be "apply" or "discard".';
  return { action: value.action, reason: typeof value.reason === "string" ? value.reason : "" };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Answers `value` as JSON. It is serialised before the status goes out, so a value that
 * cannot be (a BigInt, a cycle) becomes a 500 that says so, never a 200 with an empty body.
 */
function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  let body: string;
  let sent = status;
  try {
    body = JSON.stringify(value);
  } catch (error) {
    sent = 500;
    body = JSON.stringify({ error: `The answer could not be turned into JSON: ${messageOf(error)}.` });
  }
  response.writeHead(sent, {
    ...SECURITY_HEADERS,
    ...headers,
    "content-type": "application/json; charset=utf-8",
  });
  response.end(body);
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8" });
  response.end(`${text}\n`);
}
