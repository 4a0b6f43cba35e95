import { describe, expect, it } from "vitest";
import { createColors } from "./colors.js";
import { escapePrintedLine, escapeTerminalText, stringifyJson } from "./terminal-text.js";

describe("escapeTerminalText", () => {
  it("shows ESC, BEL, backspace, CR, C1 and bidi controls as visible escapes", () => {
    expect(escapeTerminalText("a\u001b]0;t\u0007b\bc\rd\u009b2Je\u202ef")).toBe(
      "a\\e]0;t\\x07b\\x08c\\rd\\x9b2Je\\u202ef",
    );
  });

  it("keeps newlines and tabs only in multi-line text, turning CRLF into LF", () => {
    expect(escapeTerminalText("a\n\tb")).toBe("a\\n\\tb");
    expect(escapeTerminalText("a\r\n\tb\rc", { multiline: true })).toBe("a\n\tb\\rc");
  });

  it("leaves ordinary text, Unicode included, as it is", () => {
    expect(escapeTerminalText('Rename 2 file(s): "draft" → "final" ✔ 日本')).toBe(
      'Rename 2 file(s): "draft" → "final" ✔ 日本',
    );
  });
});

describe("escapePrintedLine", () => {
  it("keeps the CLI's own colours and escapes any other sequence", () => {
    const colors = createColors(true);
    const line = `${colors.red("x")} ${colors.bold(colors.dim("y"))} \u001b[8mhidden\u001b[2J`;
    expect(escapePrintedLine(line)).toBe(
      `${colors.red("x")} ${colors.bold(colors.dim("y"))} \\e[8mhidden\\e[2J`,
    );
  });
});

describe("stringifyJson", () => {
  it("parses back to the same value and carries no raw C1 control", () => {
    const value = { text: "a\u009b2J\u001b[2J\u202e" };
    const json = stringifyJson(value);
    expect(json).not.toMatch(/[\u0080-\u009f\u202e]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
