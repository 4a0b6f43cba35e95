import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { testRuntime } from "../../../../scripts/runtimes.mjs";

/**
 * Found running the runtime's tests under Node 26: a session gives an `AbortSignal` (and a
 * context) only to an `execute` that can see it, and a sloppy-mode function can (another
 * function reads `execute.arguments` while it runs). That was told by an own `arguments`
 * property, which V8 from Node 26 and Bun's JavaScriptCore no longer define, so there such an
 * `execute` got neither: `execute.arguments[4]` was `undefined`. Now it is told by reading
 * `arguments`, which throws for every other function.
 */
const runtimeDist = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
const runtimeFolder = fileURLToPath(new URL("../../", import.meta.url));

/** Runs a sloppy `execute` that reads its fifth and fourth arguments through `execute.arguments`. */
const SCRIPT = `
const { createRequire } = await import("node:module");
const { Type } = createRequire(${JSON.stringify(runtimeFolder)} + "package.json")("@sinclair/typebox");
const { Session } = await import(${JSON.stringify(runtimeDist)});
globalThis.argumentsOf = (fn) => fn.arguments;
const execute = (0, eval)("(function execute(id, params) { var seen = argumentsOf(execute); return { content: [{ type: 'text', text: String(seen[4] instanceof AbortSignal) + ' ' + typeof seen[3] }] }; })");
const session = new Session({ cwd: process.cwd() });
session.register({ name: "sloppy", label: "Sloppy", description: "Reads its own arguments.", parameters: Type.Object({}), execute }, "sloppy.js");
await session.start();
const result = await session.execute({ toolCallId: "1", name: "sloppy", params: {} });
process.stdout.write(result.content[0].text);
await session.dispose();
`;

beforeAll(() => {
  expect(existsSync(runtimeDist), `${runtimeDist} is missing: pnpm build`).toBe(true);
});

describe("a sloppy-mode execute that reads execute.arguments", () => {
  for (const spec of ["node@26", "bun@1.4", "node@20"])
    it(`gets the signal and the context on ${spec}`, { timeout: 120_000 }, async (context) => {
      const binary = await testRuntime(spec, context.skip);
      const args = spec.startsWith("bun") ? ["-e", SCRIPT] : ["--input-type=module", "-e", SCRIPT];
      const run = spawnSync(binary, args, { encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe("true object");
    });
});
