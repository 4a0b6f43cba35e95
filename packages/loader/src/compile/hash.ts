import { createHash } from "node:crypto";

/** Hex SHA-256 of a string or bytes. */
export function hash(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}
