import type { AgentToolResult } from "@tooldock/sdk";
import { readResult } from "./read-result.js";
import type { ReportFault } from "./tool-call-fault.js";
import { truncateContent } from "./truncate-content.js";

/** A partial result as the host may see it: read like a result and truncated, or dropped. */
export function preparePartial(
  partial: unknown,
  maxResultChars: number,
  report: ReportFault,
): AgentToolResult | undefined {
  const reading = readResult(partial);
  if (!reading.ok) {
    report("update-dropped", new Error(`Malformed partial result: ${reading.problem}.`));
    return undefined;
  }
  if (reading.detailsError) report("details-dropped", reading.detailsError.error);
  return truncateContent(reading.result, maxResultChars);
}
