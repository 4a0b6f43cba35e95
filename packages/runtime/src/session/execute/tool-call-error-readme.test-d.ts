// The runtime README's "Session events" example of logging a tool's fault, compiled by the type
// check so it cannot rot. The README shows the region below as it is
// (`scripts/readme-snippets.test.ts` compares them; `pnpm docs:snippets` copies them).
import type { Session } from "../session.js";

interface Logger {
  error(message: string, fields: Record<string, unknown>): void;
}

export function logToolFaults(session: Session, logger: Logger): () => void {
  // #region log-faults
  return session.subscribe((event) => {
    if (event.type !== "tool-call-end" || event.error === undefined) return;
    const { message, location, stack } = event.error;
    const where = location
      ? `${location.file}:${location.line}:${location.column}`
      : "(no frame in its module)";
    logger.error(`tool ${event.name} threw at ${where}: ${message}`, { toolCallId: event.toolCallId, stack });
  });
  // #endregion log-faults
}
