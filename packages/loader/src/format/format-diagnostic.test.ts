import type { Diagnostic } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "./format-diagnostic.js";

const ESC = String.fromCharCode(27);

const compileError: Diagnostic = {
  code: "E_COMPILE",
  severity: "error",
  message: 'Expected ";" but found "broken"\nin the second statement',
  path: "/repo/tools/broken.ts",
  hint: "Fix the syntax error at the location shown.",
  location: { line: 2, column: 15, lineText: "const broken = ;" },
};

describe("formatDiagnostic", () => {
  it("writes plain text without color: location, message, source line with a caret, hint", () => {
    expect(formatDiagnostic(compileError, { cwd: "/repo" })).toBe(
      [
        "error E_COMPILE tools/broken.ts:2:15",
        '  Expected ";" but found "broken"',
        "  in the second statement",
        "  2 | const broken = ;",
        "                    ^",
        "  hint: Fix the syntax error at the location shown.",
      ].join("\n"),
    );
    expect(formatDiagnostic(compileError)).not.toContain(ESC);
  });

  it("paints severity, code, location, the caret and the hint label with ANSI colors", () => {
    const text = formatDiagnostic(compileError, { color: true, cwd: "/repo" });
    expect(text.split("\n")).toEqual([
      `${ESC}[31merror${ESC}[39m ${ESC}[1mE_COMPILE${ESC}[22m ${ESC}[36mtools/broken.ts:2:15${ESC}[39m`,
      '  Expected ";" but found "broken"',
      "  in the second statement",
      `${ESC}[2m  2 | const broken = ;${ESC}[22m`,
      `                    ${ESC}[31m^${ESC}[39m`,
      `  ${ESC}[2mhint:${ESC}[22m Fix the syntax error at the location shown.`,
    ]);
  });

  it("shows a warning with its tool, the absolute path outside cwd, and the default hint for a code", () => {
    const warning: Diagnostic = {
      code: "W_TOOL_ACCESSOR",
      severity: "warning",
      message: "read through getters",
      path: "/elsewhere/a.ts",
      toolName: "getter_tool",
      hint: "Use plain fields.",
    };
    expect(formatDiagnostic(warning, { color: true, cwd: "/repo" }).split("\n")[0]).toBe(
      `${ESC}[33mwarning${ESC}[39m ${ESC}[1mW_TOOL_ACCESSOR${ESC}[22m ${ESC}[36m/elsewhere/a.ts${ESC}[39m${ESC}[2m (tool getter_tool)${ESC}[22m`,
    );
    const { hint: _, ...noHint } = { ...compileError, code: "E_DISCOVERY" as const, location: undefined };
    expect(formatDiagnostic(noHint).split("\n").at(-1)).toBe(
      "  hint: Check that the path exists and is readable.",
    );
  });

  it("escapes control sequences from the module: message, file name, tool name, source line", () => {
    const hostile: Diagnostic = {
      code: "E_IMPORT",
      severity: "error",
      message: `boom${ESC}]0;pwned\u0007${ESC}[2J`,
      path: `/repo/${ESC}[31mred.ts`,
      toolName: `t\u202e`,
      hint: "h",
      location: { line: 1, column: 3, lineText: `\u0007${ESC}x` },
    };
    for (const color of [false, true]) {
      const text = formatDiagnostic(hostile, { color, cwd: "/repo" });
      expect(text).toContain("boom\\e]0;pwned\\x07\\e[2J");
      expect(text).toContain("\\e[31mred.ts:1:3");
      expect(text).toContain("(tool t\\u202e)");
      // The caret sits under column 3 of the escaped line (`\x07\e` is 6 characters shown).
      const lines = text.split("\n");
      const source = lines.findIndex((line) => line.includes("1 | "));
      expect(lines[source + 1]?.replace(new RegExp(`${ESC}\\[\\d+m`, "g"), "")).toBe(`${" ".repeat(12)}^`);
      // Only the colours the formatter itself writes remain as ESC sequences.
      expect(text.replace(new RegExp(`${ESC}\\[(?:1|2|22|31|33|36|39)m`, "g"), "")).not.toContain(ESC);
    }
  });
});
