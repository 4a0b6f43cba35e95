import { createHash, timingSafeEqual } from "node:crypto";

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/**
 * Whether `given` is `secret` (a server's token), compared in constant time: both are hashed
 * first, so neither the content nor the length of the secret leaks through how long a
 * refusal takes. `undefined` (nothing sent) never matches.
 */
export function secretsMatch(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), digest(secret));
}
