import type { ToolCallError } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { createColors } from "./colors.js";
import { formatToolError, MAX_PRINTED_STACK_LINES } from "./format-tool-error.js";

const plain = createColors(false);
const ESC = String.fromCharCode(27);
const file = "/repo/tools/save.ts";

describe("formatToolError", () => {
  it("names the tool's line relative to cwd and prints the stack down to the tool's last frame", () => {
    const error: ToolCallError = {
      message: "disk full",
      name: "Error",
      stack: [
        "Error: disk full",
        "    at write (/repo/tools/lib/write.ts:3:9)",
        `    at Object.execute (${file}:12:5)`,
        "    at /opt/tooldock/bundle/chunk.js:9:699",
        "    at AsyncLocalStorage.run (node:async_hooks:346:14)",
      ].join("\n"),
      location: { file, line: 12, column: 5 },
    };
    expect(formatToolError("save", error, plain, "/repo")).toEqual([
      'tooldock call: "save" threw at tools/save.ts:12:5',
      "  Error: disk full",
      "      at write (/repo/tools/lib/write.ts:3:9)",
      `      at Object.execute (${file}:12:5)`,
      "  … 2 more lines; --json carries the whole stack",
    ]);
  });

  it("prints at most the first lines of a stack with no frame in the tool's module", () => {
    const frames = Array.from(
      { length: 30 },
      (_, index) => `    at f${index} (/elsewhere.js:${index + 1}:1)`,
    );
    const lines = formatToolError(
      "deep",
      { message: "m", stack: ["Error: m", ...frames].join("\n") },
      plain,
      "/",
    );
    expect(lines[0]).toBe('tooldock call: "deep" threw');
    expect(lines).toHaveLength(1 + MAX_PRINTED_STACK_LINES + 1);
    expect(lines.at(-1)).toBe(
      `  … ${31 - MAX_PRINTED_STACK_LINES} more lines; --json carries the whole stack`,
    );
  });

  it("prints only the header for a thrown value without a stack", () => {
    expect(formatToolError("odd", { message: "plain words" }, plain, "/")).toEqual([
      'tooldock call: "odd" threw',
    ]);
  });

  it("escapes control sequences the tool put in its stack, name or file", () => {
    const lines = formatToolError(
      "x\u001b[2J",
      {
        message: "m",
        stack: "Error: \u001b]0;pwned\u0007 m\n    at run (/t/\u001b[31mx.ts:1:1)",
        location: { file: "/t/\u001b[31mx.ts", line: 1, column: 1 },
      },
      createColors(true),
      "/",
    );
    const text = lines.join("\n");
    expect(text).toContain("\\e]0;pwned\\x07");
    expect(text).toContain('"x\\e[2J" threw');
    // Only the CLI's own colours remain as escape sequences.
    expect(text.replace(new RegExp(`${ESC}\\[\\d+m`, "g"), "")).not.toContain(ESC);
  });
});
