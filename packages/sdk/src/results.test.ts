import { describe, expect, it } from "vitest";
import { errorResult, textResult } from "./results.js";

describe("textResult", () => {
  it("wraps text in one text block", () => {
    expect(textResult("done")).toEqual({ content: [{ type: "text", text: "done" }] });
  });

  it("carries details when given", () => {
    expect(textResult("done", { n: 2 })).toEqual({
      content: [{ type: "text", text: "done" }],
      details: { n: 2 },
    });
  });
});

describe("errorResult", () => {
  it("marks the result as an error", () => {
    expect(errorResult("bad path", { path: "/x" })).toEqual({
      content: [{ type: "text", text: "bad path" }],
      details: { path: "/x" },
      isError: true,
    });
  });
});
