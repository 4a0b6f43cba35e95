import { isIP } from "node:net";

/** The host names that always reach a loopback server. */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** Whether `host` (as given to `--host`) binds every interface (`0.0.0.0`, `::`). */
export function isWildcardHost(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}

/** Whether `host` is a loopback address or name. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** `host` as it appears in a URL or a `Host` header: IPv6 addresses in brackets. */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

/**
 * Which `Host` headers the server answers, given the address it listens on and its port.
 * A page on another site that resolves its own name to 127.0.0.1 (DNS rebinding) sends its
 * own name as `Host`, so it is refused before the token is even looked at. Listening on every
 * interface (`--host 0.0.0.0`), any name may be used to reach the machine, so any `Host` is
 * answered and the token alone guards the server.
 */
export function hostChecker(bindHost: string, port: number): (header: string | undefined) => boolean {
  if (isWildcardHost(bindHost)) return (header) => header !== undefined && header !== "";
  const names = new Set([...LOOPBACK_NAMES, urlHost(bindHost).toLowerCase()]);
  const allowed = new Set([...names].map((name) => `${name}:${port}`));
  return (header) => header !== undefined && allowed.has(header.toLowerCase());
}

/**
 * Whether a request that changes something comes from the page itself: browsers send `Origin`
 * on every cross-site POST, and it must then be this server (`http://<Host>`). A request
 * without `Origin` (curl, a test client) passes; it still needs the token.
 */
export function sameOrigin(origin: string | undefined, hostHeader: string | undefined): boolean {
  if (origin === undefined) return true;
  return hostHeader !== undefined && origin.toLowerCase() === `http://${hostHeader.toLowerCase()}`;
}
