import { randomBytes } from "node:crypto";

/** A fresh random token for one `tooldock inspect` server: 32 random bytes, base64url (43 characters). */
export function createAccessToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The name of the cookie that carries the token after the first visit. Cookies are per host,
 * not per port: with the port in the name, two servers on the same machine never overwrite
 * each other's cookie.
 */
export function tokenCookieName(port: number): string {
  return `tooldock-inspect-${port}`;
}

/** The value of cookie `name` in a `Cookie` request header, if present. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}
