// Addresses of the CLI's local servers (`tooldock inspect`, `tooldock mcp --http`).
import { isIPv6 } from "node:net";

/** Host names that always reach a loopback server, as they appear in a `Host` header. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** Whether `host` (as given to `--host`) binds every interface (`0.0.0.0`, `::`). */
export function isWildcardHost(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}

/**
 * Whether `host` is a loopback address or name: `localhost` (any case), `127.0.0.0/8`, and
 * IPv6 `::1` or an IPv4-mapped `127.x.y.z`, however written (`0:0:0:0:0:0:0:1`,
 * `[::ffff:127.0.0.1]`).
 */
export function isLoopbackHost(host: string): boolean {
  const lower = host.toLowerCase();
  if (lower === "localhost" || /^127\.\d+\.\d+\.\d+$/.test(lower)) return true;
  const bare = lower.startsWith("[") && lower.endsWith("]") ? lower.slice(1, -1) : lower;
  if (!isIPv6(bare)) return false;
  // The URL parser writes an IPv6 address the one canonical way: `[::1]`, `[::ffff:7f00:1]`.
  const canonical = new URL(`http://[${bare}]/`).hostname;
  return canonical === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}

/** `host` as it appears in a URL or a `Host` header: lower case, IPv6 addresses in brackets. */
export function urlHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.includes(":") && !lower.startsWith("[") ? `[${lower}]` : lower;
}
