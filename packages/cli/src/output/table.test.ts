import { describe, expect, it } from "vitest";
import { createColors } from "./colors.js";
import { displayWidth, formatTable } from "./table.js";

describe("formatTable", () => {
  const rows = [
    { name: "batch_rename_preview", label: "Batch rename" },
    { name: "x", label: "A label that is far too long to show" },
  ];

  it("aligns columns and trims trailing spaces", () => {
    const lines = formatTable(rows, [
      { header: "TOOL", value: (row) => row.name },
      { header: "LABEL", value: (row) => row.label, maxWidth: 12 },
    ]);
    expect(lines).toEqual([
      "TOOL                  LABEL",
      "batch_rename_preview  Batch rename",
      "x                     A label tha…",
    ]);
  });

  it("measures width without colour codes, so coloured cells still align", () => {
    const colors = createColors(true);
    const lines = formatTable(rows, [
      { header: "TOOL", value: (row) => row.name, style: (text) => colors.bold(text) },
      { header: "LABEL", value: (row) => row.label, maxWidth: 5 },
    ]);
    expect(lines.map((line) => displayWidth(line).toString())).toEqual(["27", "27", "27"]);
    expect(lines[1]).toContain("\u001b[1m");
  });
});
