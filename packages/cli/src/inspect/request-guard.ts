import { isWildcardHost, LOOPBACK_HOSTNAMES, urlHost } from "../http/local-address.js";

/**
 * Which `Host` headers the server answers, given the address it listens on and its port.
 * A page on another site that resolves its own name to 127.0.0.1 (DNS rebinding) sends its
 * own name as `Host`, so it is refused before the token is even looked at. Listening on every
 * interface (`--host 0.0.0.0`), any name may be used to reach the machine, so any `Host` is
 * answered and the token alone guards the server.
 */
export function hostChecker(bindHost: string, port: number): (header: string | undefined) => boolean {
  if (isWildcardHost(bindHost)) return (header) => header !== undefined && header !== "";
  const names = new Set([...LOOPBACK_HOSTNAMES, urlHost(bindHost)]);
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
