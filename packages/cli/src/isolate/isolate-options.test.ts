import { describe, expect, it } from "vitest";
import type { ParsedArgs } from "../args/parse-command-args.js";
import { resolveIsolateOptions } from "./isolate-options.js";

const args = (values: ParsedArgs["values"] = {}): ParsedArgs => ({ values, positionals: [], help: false });

describe("resolveIsolateOptions", () => {
  it("defaults to 10 s and 512 MB per module, one child per CPU", () => {
    expect(resolveIsolateOptions(args(), {}, 4)).toMatchObject({
      timeoutMs: 10_000,
      memoryMb: 512,
      concurrency: 4,
      factoryTimeoutMs: 5_000,
      settleMs: 1_000,
    });
  });

  it("takes the environment, and a flag over it", () => {
    const env = { TOOLDOCK_ISOLATE_TIMEOUT_MS: "3000", TOOLDOCK_ISOLATE_MEMORY_MB: "64" };
    expect(resolveIsolateOptions(args(), env, 2)).toMatchObject({ timeoutMs: 3000, memoryMb: 64 });
    expect(resolveIsolateOptions(args({ "isolate-timeout": "1500" }), env, 2)).toMatchObject({
      timeoutMs: 1500,
      factoryTimeoutMs: 750,
      settleMs: 1000,
    });
  });

  it("keeps a smaller loader factory timeout, and caps a larger one at half the module's time", () => {
    expect(resolveIsolateOptions(args(), { TOOLDOCK_FACTORY_TIMEOUT_MS: "500" }, 1).factoryTimeoutMs).toBe(
      500,
    );
    expect(resolveIsolateOptions(args(), { TOOLDOCK_FACTORY_TIMEOUT_MS: "60000" }, 1).factoryTimeoutMs).toBe(
      5000,
    );
  });

  it("refuses values that are not positive whole numbers, naming where they came from", () => {
    expect(() => resolveIsolateOptions(args({ "isolate-memory": "1.5" }), {}, 1)).toThrow(
      '--isolate-memory must be a positive whole number (got "1.5")',
    );
    expect(() => resolveIsolateOptions(args(), { TOOLDOCK_ISOLATE_TIMEOUT_MS: "0" }, 1)).toThrow(
      /TOOLDOCK_ISOLATE_TIMEOUT_MS must be a positive whole number/,
    );
  });
});
