import { describe, expect, it } from "vitest";
import { scaffoldNames } from "./scaffold-names.js";

describe("scaffoldNames", () => {
  it("derives package, tool, file and label names from the folder", () => {
    expect(scaffoldNames("my-word-tools")).toEqual({
      packageName: "my-word-tools",
      toolName: "my_word_tools",
      fileStem: "my-word-tools",
      label: "My word tools",
    });
  });

  it("takes the tool name from --name, in snake_case", () => {
    expect(scaffoldNames("pkg", "wordCount")).toMatchObject({
      packageName: "pkg",
      toolName: "word_count",
      fileStem: "word-count",
    });
  });

  it("always produces a valid tool name", () => {
    expect(scaffoldNames("2048").toolName).toBe("my_tool");
    expect(scaffoldNames("3d-tools").toolName).toBe("d_tools");
    expect(scaffoldNames("!!!")).toMatchObject({ toolName: "my_tool", packageName: "my-tooldock-tools" });
  });
});
