import { describe, expect, it } from "vitest";
import type { ParsedArgs } from "../args/parse-command-args.js";
import { readIsolation } from "./isolation-flags.js";

const args = (values: ParsedArgs["values"] = {}): ParsedArgs => ({ values, positionals: [], help: false });

describe("readIsolation", () => {
  it("isolates validate by default and the other commands only with --isolate", () => {
    expect(readIsolation(args(), {}, "validate", true)).toEqual({
      mode: "process",
      allowRead: [],
      allowWrite: [],
    });
    expect(readIsolation(args({ "no-isolate": true }), {}, "validate", true)).toBeUndefined();
    expect(readIsolation(args(), {}, "list", false)).toBeUndefined();
    expect(readIsolation(args({ isolate: true }), {}, "list", false)).toEqual({
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
        env,
        "call",
        false,
      ),
    ).toEqual({
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
    expect(readIsolation(args(), {}, "validate", true)).toEqual({
      mode: "process",
      allowRead: [],
      allowWrite: [],
    });
    expect(readIsolation(args({ "allow-write": ["out"] }), {}, "validate", true)?.allowWrite).toEqual([
      "out",
    ]);
    expect(readIsolation(args({ isolate: true }), {}, "call", false)).toEqual({
      mode: "process",
      allowRead: [],
    });
  });

  it("refuses the permission flags without isolation, and both --isolate and --no-isolate", () => {
    expect(() => readIsolation(args({ "allow-exec": true }), {}, "list", false)).toThrow(
      "--allow-exec needs --isolate",
    );
    expect(() =>
      readIsolation(args({ "no-isolate": true, "allow-read": ["x"] }), {}, "validate", true),
    ).toThrow("--allow-read needs isolation; drop --no-isolate");
    expect(() => readIsolation(args({ isolate: true, "no-isolate": true }), {}, "mcp", false)).toThrow(
      "--isolate and --no-isolate exclude each other",
    );
  });

  it("refuses numbers that are not positive whole numbers, naming where they came from", () => {
    expect(() => readIsolation(args({ "isolate-memory": "1.5" }), {}, "validate", true)).toThrow(
      '--isolate-memory must be a positive whole number (got "1.5")',
    );
    expect(() => readIsolation(args(), { TOOLDOCK_ISOLATE_TIMEOUT_MS: "0" }, "validate", true)).toThrow(
      /TOOLDOCK_ISOLATE_TIMEOUT_MS must be a positive whole number/,
    );
  });
});
