import { describe, expect, it } from "vitest";
import * as astEdit from "./index.js";

describe("@tooldock/ast-edit public surface", () => {
  it("exports exactly these values (types are checked by tsc)", () => {
    expect(Object.keys(astEdit).sort()).toEqual([
      "AST_EDIT_TOOL_NAME",
      "AstEditError",
      "astEditParameters",
      "createAstEditTool",
    ]);
  });

  it("pins the tool's name and error codes of docs/contract.md", () => {
    expect(astEdit.AST_EDIT_TOOL_NAME).toBe("ast_edit");
    expect(new astEdit.AstEditError("E_AST_EDIT_STALE", "stale").code).toBe("E_AST_EDIT_STALE");
  });
});
