import { type AgentToolResult, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { truncateContent } from "./truncate-content.js";

const text = (value: string) => ({ type: "text" as const, text: value });

describe("truncateContent", () => {
  it("returns a result within the budget as is, the exact budget included", () => {
    const result = textResult("abcde");
    expect(truncateContent(result, 5)).toBe(result);
    expect(truncateContent(result, Number.POSITIVE_INFINITY)).toBe(result);
  });

  it("cuts the block where the budget runs out and counts every character left out", () => {
    const result: AgentToolResult = { content: [text("abc"), text("defgh"), text("ij")], isError: true };
    expect(truncateContent(result, 5)).toEqual({
      content: [text("abc"), text("de\n… [truncated 5 characters]")],
      isError: true,
    });
  });

  it("keeps the marker in an emptied block when the budget ends at a block boundary", () => {
    const result: AgentToolResult = { content: [text("abc"), text("def")] };
    expect(truncateContent(result, 3).content).toEqual([text("abc"), text("\n… [truncated 3 characters]")]);
  });

  it("never splits a surrogate pair", () => {
    const result = textResult("ab😀cd");
    expect(truncateContent(result, 3).content).toEqual([text("ab\n… [truncated 4 characters]")]);
  });

  it("does not count or drop image blocks", () => {
    const image = { type: "image" as const, data: "A".repeat(50), mimeType: "image/png" };
    const result: AgentToolResult = { content: [image, text("abcdef"), image] };
    expect(truncateContent(result, 4).content).toEqual([
      image,
      text("abcd\n… [truncated 2 characters]"),
      image,
    ]);
  });

  it("keeps details", () => {
    expect(truncateContent(textResult("abcdef", { kept: true }), 1).details).toEqual({ kept: true });
  });
});
