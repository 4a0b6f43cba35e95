import { readFileSync, statSync } from "node:fs";
import { hash } from "./hash.js";
import { fingerprintOf } from "./input-fingerprint.js";

/** A source file as the cache records it. */
export interface InputRecord {
  /** Content hash of the bytes that were read. */
  hash: string;
  /** Stat fingerprint taken before reading; `undefined` when the file changed too recently. */
  fingerprint: string | undefined;
}

/**
 * Reads a file and records it, the stat taken *before* the read: a write racing with the read
 * leaves a fingerprint older than the content, which the next check settles by hashing again.
 */
export function readInput(path: string): { bytes: Buffer; record: InputRecord } {
  const stats = statSync(path);
  const bytes = readFileSync(path);
  return { bytes, record: { hash: hash(bytes), fingerprint: fingerprintOf(stats) } };
}
