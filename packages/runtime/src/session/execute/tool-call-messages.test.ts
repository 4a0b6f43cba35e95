import { describe, expect, it } from "vitest";
import { toolCallMessages } from "./tool-call-messages.js";

// Found by the second read: "…differ from the store's.. Check the arguments".
describe("toolCallMessages.threw", () => {
  it("never doubles the period of the error it quotes", () => {
    expect(toolCallMessages.threw("x", "The stack shown may differ from the store's.")).toBe(
      'Tool "x" failed: The stack shown may differ from the store\'s. Check the arguments and the current state, then retry or try another approach.',
    );
    expect(toolCallMessages.threw("x", "boom")).toContain("failed: boom. Check");
  });
});
