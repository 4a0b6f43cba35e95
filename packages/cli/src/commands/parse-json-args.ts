import { UsageError } from "../args/usage-error.js";

/** `--args '<json>'`: a JSON object, or bad usage saying what is wrong with it. */
export function parseJsonArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`, "call");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError('--args must be a JSON object, e.g. --args \'{"path":"src"}\'', "call");
  }
  return value as Record<string, unknown>;
}
