import { describe, expect, it } from "vitest";
import type { CommandSpec } from "./command-spec.js";
import { flagOption, listOption, parseCommandArgs, stringOption } from "./parse-command-args.js";
import { UsageError } from "./usage-error.js";

const spec: CommandSpec = {
  name: "validate",
  summary: "check",
  usage: "tooldock validate [paths…]",
  details: [],
  options: {
    tools: { type: "string", multiple: true, description: "a path" },
    format: { type: "string", choices: ["pretty", "json", "junit"], description: "format" },
    strict: { type: "boolean", description: "strict" },
  },
  positionals: { min: 0, max: 2 },
};

function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error("expected a UsageError");
}

describe("parseCommandArgs", () => {
  it("reads positionals, repeated options, choices and flags", () => {
    const args = parseCommandArgs(spec, ["a", "--tools", "b", "--tools=c", "--format", "junit", "--strict"]);
    expect(args.positionals).toEqual(["a"]);
    expect(listOption(args, "tools")).toEqual(["b", "c"]);
    expect(stringOption(args, "format")).toBe("junit");
    expect(flagOption(args, "strict")).toBe(true);
    expect(args.help).toBe(false);
  });

  it("reports --help and -h without checking the rest", () => {
    expect(parseCommandArgs(spec, ["--help"]).help).toBe(true);
    expect(parseCommandArgs(spec, ["x", "y", "z", "-h"]).help).toBe(true);
  });

  it("turns an unknown option into a usage error naming it and the command", () => {
    const error = usageError(() => parseCommandArgs(spec, ["--frmat", "json"]));
    expect(error.message).toContain("--frmat");
    expect(error.message).not.toContain("To specify a positional");
    expect(error.command).toBe("validate");
    expect(error.code).toBe("E_USAGE");
  });

  it("rejects a value outside the choices, listing them", () => {
    const error = usageError(() => parseCommandArgs(spec, ["--format", "xml"]));
    expect(error.message).toBe('--format must be one of pretty, json, junit (got "xml")');
  });

  it("rejects a missing option value", () => {
    expect(usageError(() => parseCommandArgs(spec, ["--format"])).message).toContain("--format");
  });

  it("enforces the number of positionals", () => {
    expect(usageError(() => parseCommandArgs(spec, ["a", "b", "c"])).message).toBe("unexpected argument: c");
    expect(usageError(() => parseCommandArgs(spec, ["a", "b", "c", "d"])).message).toBe(
      "unexpected arguments: c d",
    );
    const needsOne = { ...spec, name: "init", positionals: { min: 1, max: 1 } };
    expect(usageError(() => parseCommandArgs(needsOne, [])).message).toContain("missing argument");
  });

  it("rejects a value given to a boolean flag", () => {
    expect(usageError(() => parseCommandArgs(spec, ["--strict=yes"])).message).toContain("--strict");
  });
});
