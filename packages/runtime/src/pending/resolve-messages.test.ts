import { describe, expect, it } from "vitest";
import type { PendingActionRecord } from "./pending-action-record.js";
import { applyFailedText, rejectFailedText } from "./resolve-messages.js";

const record = { id: "a1", label: "Rename A" } as PendingActionRecord;

// Found by a bug hunt: an error whose message ends in a period gave "… stopped. The host
// closed it.. The action is still pending".
describe("resolve messages", () => {
  it("never doubles the period of an error message that ends in one", () => {
    const error = new Error("The tool host stopped. The host closed it.");
    expect(applyFailedText(record, error)).toContain("The host closed it. The action is still pending");
    expect(rejectFailedText(record, "no", error)).toContain("The host closed it. The action is no longer");
    expect(applyFailedText(record, new Error("disk full"))).toContain(
      "disk full. The action is still pending",
    );
  });
});
