import { TooldockError } from "@tooldock/sdk";

/** A `TooldockError` with code `E_INVALID_SCHEMA`. */
export function invalidSchema(message: string, cause?: unknown): TooldockError {
  return new TooldockError("E_INVALID_SCHEMA", message, { cause });
}
