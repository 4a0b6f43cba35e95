import { describe, expect, it } from "vitest";
import type { ParsedArgs } from "../args/parse-command-args.js";
import { readIsolation } from "./isolation-flags.js";

const args = (values: ParsedArgs["values"] = {}): ParsedArgs => ({ values, positionals: [], help: false });
const io = (env: Record<string, string> = {}) => ({ env, stderr: { write: () => true } });

describe("readIsolation", () => {
  it("isolates validate by default and the other commands only with --isolate", () => {
    expect(readIsolation(args(), io(), "validate", true)).toEqual({
      onOutput: expect.any(Function),
      mode: "process",
      allowRead: [],
      allowWrite: [],
    });
    expect(readIsolation(args({ "no-isolate": true }), io(), "validate", true)).toBeUndefined();
    expect(readIsolation(args(), io(), "list", false)).toBeUndefined();
    expect(readIsolation(args({ isolate: true }), io(), "list", false)).toEqual({
      onOutput: expect.any(Function),
      mode: "process",
      allowRead: [],
    });
  });

  it("maps the permission flags and the numbers onto the loader's options, a flag over its variable", () => {
    const env = { TOOLDOCK_ISOLATE_TIMEOUT_MS: "3000", TOOLDOCK_ISOLATE_MEMORY_MB: "64" };
    expect(
      readIsolation(
        args({
          isolate: true,
          "allow-read": ["../data", "/etc/hosts"],
          "allow-write": ["out"],
          "allow-exec": true,
          "allow-net": true,
          "isolate-timeout": "1500",
        }),
        io(env),
        "call",
        false,
      ),
    ).toEqual({
      onOutput: expect.any(Function),
      mode: "process",
      allowRead: ["../data", "/etc/hosts"],
      allowWrite: ["out"],
      allowExec: true,
      allowNet: true,
      memoryMb: 64,
      loadTimeoutMs: 1500,
    });
  });

  it("lets validate write nothing unless --allow-write says so; other commands keep the loader's default", () => {
    expect(readIsolation(args(), io(), "validate", true)).toEqual({
      onOutput: expect.any(Function),
      mode: "process",
      allowRead: [],
      allowWrite: [],
    });
    expect(readIsolation(args({ "allow-write": ["out"] }), io(), "validate", true)?.allowWrite).toEqual([
      "out",
    ]);
    expect(readIsolation(args({ isolate: true }), io(), "call", false)).toEqual({
      onOutput: expect.any(Function),
      mode: "process",
      allowRead: [],
    });
  });

  it("refuses the permission flags without isolation, and both --isolate and --no-isolate", () => {
    expect(() => readIsolation(args({ "allow-exec": true }), io(), "list", false)).toThrow(
      "--allow-exec needs --isolate",
    );
    expect(() =>
      readIsolation(args({ "no-isolate": true, "allow-read": ["x"] }), io(), "validate", true),
    ).toThrow("--allow-read needs isolation; drop --no-isolate");
    expect(() => readIsolation(args({ isolate: true, "no-isolate": true }), io(), "mcp", false)).toThrow(
      "--isolate and --no-isolate exclude each other",
    );
  });

  it("refuses numbers that are not positive whole numbers, naming where they came from", () => {
    expect(() => readIsolation(args({ "isolate-memory": "1.5" }), io(), "validate", true)).toThrow(
      '--isolate-memory must be a positive whole number (got "1.5")',
    );
    expect(() => readIsolation(args(), io({ TOOLDOCK_ISOLATE_TIMEOUT_MS: "0" }), "validate", true)).toThrow(
      /TOOLDOCK_ISOLATE_TIMEOUT_MS must be a positive whole number/,
    );
  });
});

describe("readIsolation's onOutput", () => {
  it("writes what the tool host prints to stderr, its control characters escaped", () => {
    const written: string[] = [];
    const options = readIsolation(
      args({ isolate: true }),
      { env: {}, stderr: { write: (text) => written.push(text) } },
      "call",
      false,
    );
    options?.onOutput?.("hello \u001b[2Jworld\n");
    expect(written).toEqual(["hello \\e[2Jworld\n"]);
  });
});
