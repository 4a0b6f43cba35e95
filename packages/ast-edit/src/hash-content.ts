import { createHash } from "node:crypto";

/** SHA-256 of `bytes`, hex: how a preview, an apply and recovery recognise a file's text. */
export function hashContent(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
