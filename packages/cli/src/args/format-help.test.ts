import { describe, expect, it } from "vitest";
import { mcpSpec } from "../commands/command-specs.js";
import { formatCommandHelp, wrap } from "./format-help.js";
import { parseCommandArgs } from "./parse-command-args.js";

describe("wrap", () => {
  it("breaks at spaces without exceeding the width", () => {
    expect(wrap("one two three four", 9)).toEqual(["one two", "three", "four"]);
  });

  it("keeps a word longer than the width on its own line", () => {
    expect(wrap("a verylongword b", 5)).toEqual(["a", "verylongword", "b"]);
  });
});

describe("tooldock mcp --help", () => {
  it("documents --watch and what it does", () => {
    const help = formatCommandHelp(mcpSpec).join("\n");
    expect(help).toContain("[--watch]");
    expect(help).toMatch(/--watch\s+Reload the tools when their files change and tell the client/);
    expect(help).toContain("notifications/tools/list_changed");
    expect(parseCommandArgs(mcpSpec, ["--watch", "./tools"]).values.watch).toBe(true);
  });
});
