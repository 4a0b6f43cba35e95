import { describe, expect, it } from "vitest";
import {
  detailDiffs,
  diffLineKind,
  enumValues,
  fieldKind,
  initialValue,
  pointerOf,
  valueAt,
  withoutItem,
  withValueAt,
} from "./form-model.js";

// The JSON Schema of batch_rename_preview, as TypeBox writes it.
const renameSchema = {
  type: "object",
  properties: {
    files: { type: "array", items: { type: "string" }, minItems: 1 },
    find: { type: "string" },
    replace: { type: "string" },
    regex: { type: "boolean" },
    mode: {
      anyOf: [
        { const: "fast", type: "string" },
        { const: "safe", type: "string" },
      ],
    },
    limit: { type: "integer", minimum: 1 },
    nested: { type: "object", properties: { deep: { type: "number" } }, required: ["deep"] },
  },
  required: ["files", "find", "replace", "regex"],
  additionalProperties: false,
};

describe("inspect page form model", () => {
  it("draws each schema keyword as its field kind; TypeBox literal unions are enums", () => {
    const { properties } = renameSchema;
    expect(fieldKind(properties.files)).toBe("array");
    expect(fieldKind(properties.regex)).toBe("boolean");
    expect(fieldKind(properties.mode)).toBe("enum");
    expect(enumValues(properties.mode)).toEqual(["fast", "safe"]);
    expect(fieldKind(properties.limit)).toBe("integer");
    expect(fieldKind(properties.nested)).toBe("object");
    expect(fieldKind({ type: ["string", "null"] })).toBe("string");
    expect(fieldKind({ anyOf: [{ type: "string" }, { type: "number" }] })).toBe("json");
    expect(fieldKind({ type: "object" })).toBe("json");
  });

  it("starts from the required properties only, arrays with minItems items, defaults where given", () => {
    expect(initialValue(renameSchema)).toEqual({ files: [""], find: "", replace: "", regex: false });
    expect(initialValue({ type: "string", default: "x" })).toBe("x");
    expect(initialValue({ type: "integer", minimum: 3 })).toBe(3);
  });

  it("writes a value at a path, creating what is missing, and leaves an optional field out when emptied", () => {
    const start = { files: ["a"], find: "x" };
    const next = withValueAt(start, ["nested", "deep"], 2);
    expect(next).toEqual({ files: ["a"], find: "x", nested: { deep: 2 } });
    expect(start).toEqual({ files: ["a"], find: "x" }); // unchanged
    expect(withValueAt(next, ["files", 1], "b")).toMatchObject({ files: ["a", "b"] });
    expect(withValueAt(next, ["find"], undefined)).toEqual({ files: ["a"], nested: { deep: 2 } });
    expect(valueAt(next, ["nested", "deep"])).toBe(2);
    expect(valueAt(next, ["files", 3])).toBeUndefined();
    expect(withoutItem({ files: ["a", "b", "c"] }, ["files"], 1)).toEqual({ files: ["a", "c"] });
  });

  it("names fields by the JSON Pointer the validator reports issues at", () => {
    expect(pointerOf(["files", 0])).toBe("/files/0");
    expect(pointerOf([])).toBe("");
    expect(pointerOf(["a/b", "c~d"])).toBe("/a~1b/c~0d");
  });

  it("finds the diffs of an action's details: one per ast_edit file, or a single diff", () => {
    const details = {
      replacements: 2,
      files: [
        { path: "src/a.ts", replacements: 1, diff: "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-x\n+y\n" },
        { path: "src/b.ts", replacements: 1 },
      ],
    };
    expect(detailDiffs(details)).toEqual([
      { path: "src/a.ts", replacements: 1, diff: details.files[0]?.diff },
    ]);
    expect(detailDiffs({ diff: "+a" })).toEqual([{ diff: "+a" }]);
    expect(detailDiffs({ renames: [] })).toEqual([]);
    expect(["--- a", "+++ b", "@@ -1 +1 @@", "-x", "+y", " z"].map(diffLineKind)).toEqual([
      "meta",
      "meta",
      "hunk",
      "remove",
      "add",
      "context",
    ]);
  });
});
