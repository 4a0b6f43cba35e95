/** An error's message for a log line; never throws, whatever was thrown. */
export function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "(an error that cannot be shown)";
  }
}
