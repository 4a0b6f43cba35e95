import type { IncomingHttpHeaders } from "node:http";
import { isWildcardHost, LOOPBACK_HOSTNAMES, urlHost } from "../../http/local-address.js";
import { secretsMatch } from "../../http/secrets-match.js";

/** What {@link checkRequest} lets through. */
export interface RequestGuard {
  /** Hostnames (no port; IPv6 in brackets) accepted in the `Host` header, lower case. */
  allowedHosts: readonly string[];
  /** Origins (`scheme://host[:port]`) accepted in the `Origin` header; a request without one passes. */
  allowedOrigins: readonly string[];
  /** The bearer token every request must carry; `undefined`: none asked. */
  token?: string;
}

/** A refused request: the HTTP status and the JSON-RPC error message sent with it. */
export interface Refusal {
  status: 401 | 403;
  message: string;
}

/**
 * Checks a request's `Host`, `Origin` and `Authorization` headers, in that order, and says
 * why it is refused (`undefined`: accepted). `Host` and `Origin` defend against DNS rebinding
 * and against web pages: a page from another site that the browser sends here carries its
 * own `Origin`, and a rebound name its own `Host`; either is a `403`. A missing or wrong
 * bearer token is a `401`; tokens are compared in constant time (as SHA-256 digests, so the
 * comparison does not leak the token's length either).
 */
export function checkRequest(headers: IncomingHttpHeaders, guard: RequestGuard): Refusal | undefined {
  const host = hostnameOf(headers.host);
  if (host === undefined || !guard.allowedHosts.includes(host)) {
    return {
      status: 403,
      message: `Forbidden: Host ${JSON.stringify(headers.host ?? "")} is not one this server answers to (allowed: ${guard.allowedHosts.join(", ")}); start it with --allow-host to add one`,
    };
  }
  const origin = headers.origin;
  if (origin !== undefined && !guard.allowedOrigins.includes(normalOrigin(origin))) {
    return {
      status: 403,
      message: `Forbidden: Origin ${JSON.stringify(origin)} is not allowed (allowed: ${guard.allowedOrigins.join(", ")}); start the server with --allow-origin ${JSON.stringify(origin)} if that page may use it`,
    };
  }
  if (guard.token !== undefined && !bearerMatches(headers.authorization, guard.token)) {
    return {
      status: 401,
      message:
        headers.authorization === undefined
          ? `Unauthorized: this server needs a bearer token (Authorization: Bearer <token>). ${WHERE_THE_TOKEN_IS}`
          : `Unauthorized: the bearer token is wrong; send the server's as Authorization: Bearer <token>. ${WHERE_THE_TOKEN_IS}`,
    };
  }
  return undefined;
}

/** Where a client finds the token, as `mcp --http` takes it (there is no `--token` flag: a process list shows flags). */
const WHERE_THE_TOKEN_IS =
  "The token is TOOLDOCK_MCP_TOKEN or the file named by --token-file of the server's environment, or else the one it printed on stderr when it started.";

/** The hostname of a `Host` header value (port dropped, lower case); `undefined` when it is not one. */
export function hostnameOf(host: string | undefined): string | undefined {
  if (host === undefined || host === "") return undefined;
  try {
    const url = new URL(`http://${host}`);
    // A Host header is host[:port] and nothing else.
    if (url.username !== "" || url.password !== "" || url.pathname !== "/" || url.search !== "")
      return undefined;
    return url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** `scheme://host[:port]` as a browser sends it (lower case, default port left out). */
export function normalOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    return url.origin === "null" ? origin : url.origin;
  } catch {
    return origin;
  }
}

function bearerMatches(authorization: string | undefined, token: string): boolean {
  return secretsMatch(/^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization ?? "")?.[1], token);
}

/** Hostnames accepted in `Host`: loopback names, the listening address (unless a wildcard) and `extra`. */
export function allowedHostsFor(hostname: string, extra: readonly string[]): string[] {
  const own = isWildcardHost(hostname) ? [] : [urlHost(hostname)];
  return [...new Set([...LOOPBACK_HOSTNAMES, ...own, ...extra.map(urlHost)])];
}

/** Origins accepted in `Origin`: `http://<each allowed host>:<port>` and `extra`. */
export function allowedOriginsFor(hostname: string, port: number, extra: readonly string[]): string[] {
  const own = allowedHostsFor(hostname, []).map((host) => `http://${host}:${port}`);
  return [...new Set([...own, ...extra.map(normalOrigin)])];
}
