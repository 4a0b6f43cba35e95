// Attack (a newcomer's trap): `tooldock mcp --help` wrapped its MCP client configuration at
// 100 columns in the middle of the JSON, so copying it gave broken JSON; `call --help` could
// break its example command the same way. Lines of a help paragraph indented by two spaces
// are now printed whole, and those examples are such lines.
import { describe, expect, it } from "vitest";
import { formatCommandHelp, formatParagraph } from "../../src/args/format-help.js";
import { callSpec, mcpSpec } from "../../src/commands/command-specs.js";

describe("help examples are printed whole", () => {
  it("the MCP client configuration is one line of valid JSON", () => {
    const lines = formatCommandHelp(mcpSpec);
    const config = lines.find((line) => line.trimStart().startsWith('{ "mcpServers"'));
    expect(config, lines.join("\n")).toBeDefined();
    expect(JSON.parse(config ?? "")).toEqual({
      mcpServers: { tooldock: { command: "npx", args: ["-y", "@tooldock/cli", "mcp", "./tools"] } },
    });
  });

  it("the call example is one line", () => {
    const lines = formatCommandHelp(callSpec);
    const example = lines.find((line) => line.includes("tooldock call batch_rename_preview"));
    expect(example).toMatch(/^ {2}tooldock call .* --args '\{.*\}' --apply$/);
  });

  it("ordinary lines still wrap at 100 columns", () => {
    const long = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ");
    const lines = formatParagraph(`${long}\n  ${long}`, 100);
    expect(lines.slice(0, -1).every((line) => line.length <= 100)).toBe(true);
    expect(lines.at(-1)).toBe(`  ${long}`);
  });
});
