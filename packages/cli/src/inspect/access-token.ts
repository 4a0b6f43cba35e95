import { randomBytes } from "node:crypto";

/** A fresh random token for one `tooldock inspect` server: 32 random bytes, base64url (43 characters). */
export function createAccessToken(): string {
  return randomBytes(32).toString("base64url");
}
