import { describe, expect, it } from "vitest";
import { createColors } from "./colors.js";
import { actionDiffs, formatDiffs, formatPendingStack, formatToolChoice } from "./format-pending.js";

const plain = createColors(false);

describe("pending-stack formatting", () => {
  it("numbers the stack from the top", () => {
    const lines = formatPendingStack(
      [
        { id: "b", label: "Second", sourceToolName: "ast_edit", details: undefined, createdAt: 2 },
        { id: "a", label: "First", sourceToolName: "custom_tool", details: undefined, createdAt: 1 },
      ],
      plain,
    );
    expect(lines).toEqual([
      "Pending actions (2, top first; resolve takes the top):",
      "  #    ID  LABEL   SOURCE",
      "  top  b   Second  ast_edit",
      "  2    a   First   custom_tool",
    ]);
    expect(formatPendingStack([], plain)).toEqual(["Pending actions: none"]);
  });

  it("finds diffs in details and caps their length", () => {
    expect(actionDiffs({ files: [{ diff: "-a\n+b\n" }, { path: "x" }], diff: "--- x" })).toEqual([
      "--- x",
      "-a\n+b\n",
    ]);
    expect(actionDiffs("text")).toEqual([]);
    const long = Array.from({ length: 50 }, (_, index) => `+${index}`).join("\n");
    const lines = formatDiffs([long], plain);
    expect(lines).toHaveLength(41);
    expect(lines.at(-1)).toBe("… 10 more lines");
  });

  it("says when the tool choice is forced", () => {
    expect(formatToolChoice({ type: "tool", name: "resolve" }, plain)).toBe(
      "Steering: tool choice forced to resolve",
    );
    expect(formatToolChoice("auto", plain)).toBe("Steering: tool choice auto");
  });
});
