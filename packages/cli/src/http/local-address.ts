// Addresses of the CLI's local servers (`tooldock inspect`, `tooldock mcp --http`).

/** Host names that always reach a loopback server, as they appear in a `Host` header. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** Whether `host` (as given to `--host`) binds every interface (`0.0.0.0`, `::`). */
export function isWildcardHost(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}

/** Whether `host` is a loopback address or name. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** `host` as it appears in a URL or a `Host` header: lower case, IPv6 addresses in brackets. */
export function urlHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.includes(":") && !lower.startsWith("[") ? `[${lower}]` : lower;
}
