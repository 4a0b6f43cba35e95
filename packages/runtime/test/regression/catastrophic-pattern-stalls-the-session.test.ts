import { Worker } from "node:worker_threads";
import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { Session } from "../../src/index.js";
import { validateTool } from "../../src/session/validate-tool.js";

/**
 * Attack: a tool whose schema has a pattern with nested quantifiers (`^(a+)+$`, an accident of
 * its author, or a module that lies), and a model talked into sending 64 `a`s and a `!`. TypeBox's
 * compiler and Ajv ran the pattern on V8's backtracking `RegExp`: 2^64 steps on the session's
 * own thread, where no call deadline can fire, so the host stopped answering every user. Fixed:
 * every schema pattern runs on RE2 (re2js), whose time grows with the text, not with the ways to
 * split it; a pattern RE2 cannot run (lookaround, backreferences) is refused at load.
 *
 * The calls run in a worker built from the runtime's `dist/`, so that a stalled check stalls the
 * worker, not this test: the test waits for the worker's answer, and a stall fails it at the
 * test's timeout instead of hanging the suite.
 */
const CATASTROPHIC = "^(a+)+$";
const CRAFTED = `${"a".repeat(64)}!`;

let worker: Worker | undefined;

afterEach(async () => {
  await worker?.terminate();
  worker = undefined;
});

/** Runs `body` (an async function's source, given `Session`, `Type` and `textResult`) in a worker. */
function inWorker(body: string): Promise<unknown> {
  const runtime = new URL("../../dist/index.js", import.meta.url).href;
  const typebox = import.meta.resolve("@sinclair/typebox");
  const sdk = import.meta.resolve("@tooldock/sdk");
  const source = `
    import { parentPort } from "node:worker_threads";
    import { Session } from ${JSON.stringify(runtime)};
    import { Type } from ${JSON.stringify(typebox)};
    import { textResult } from ${JSON.stringify(sdk)};
    const run = async () => { ${body} };
    run().then((value) => parentPort.postMessage({ value }), (error) => parentPort.postMessage({ error: String(error) }));
  `;
  const started = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`));
  worker = started;
  return new Promise((resolve, reject) => {
    started.once("message", (message: { value?: unknown; error?: string }) => {
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message.value);
    });
    started.once("error", reject);
  });
}

/** The body of a worker that registers a tool with `parameters` (source) and calls it with `params`. */
function callBody(parameters: string, params: unknown): string {
  return `
    const session = new Session({ executeTimeoutMs: 2000 });
    session.register({
      name: "tag",
      label: "Tag",
      description: "Tags a text.",
      parameters: ${parameters},
      execute: async () => textResult("tagged"),
    });
    const result = await session.execute({ toolCallId: "c1", name: "tag", params: ${JSON.stringify(params)} });
    return { isError: result.isError === true, text: result.content.map((block) => block.text).join("") };
  `;
}

describe("a catastrophic pattern and a crafted value", () => {
  it("TypeBox string pattern: the call is answered with the schema's error", async () => {
    const answer = await inWorker(
      callBody(`Type.Object({ text: Type.String({ pattern: ${JSON.stringify(CATASTROPHIC)} }) })`, {
        text: CRAFTED,
      }),
    );
    expect(answer).toMatchObject({ isError: true, text: expect.stringContaining("/text") });
  });

  it("JSON Schema through Type.Unsafe (Ajv's path): the call is answered with the schema's error", async () => {
    const answer = await inWorker(
      callBody(
        `Type.Object({ text: Type.Unsafe({ type: "string", pattern: ${JSON.stringify(CATASTROPHIC)} }) })`,
        { text: CRAFTED },
      ),
    );
    expect(answer).toMatchObject({ isError: true, text: expect.stringContaining("/text") });
  });

  it("a Record's key pattern (patternProperties): the call is answered", async () => {
    const answer = await inWorker(
      callBody(
        `Type.Object({ tags: Type.Record(Type.String({ pattern: ${JSON.stringify(CATASTROPHIC)} }), Type.Number(), { additionalProperties: false }) })`,
        { tags: { [CRAFTED]: 1 } },
      ),
    );
    expect(answer).toMatchObject({ isError: true });
  });

  it("a value the pattern accepts still passes", async () => {
    const answer = await inWorker(
      callBody(`Type.Object({ text: Type.String({ pattern: ${JSON.stringify(CATASTROPHIC)} }) })`, {
        text: "a".repeat(64),
      }),
    );
    expect(answer).toEqual({ isError: false, text: "tagged" });
  });
});

describe("a pattern RE2 cannot run", () => {
  it("is refused at load (a checked registration) with E_INVALID_SCHEMA naming the pattern, where it is, and what to do", () => {
    const checked = validateTool(
      {
        name: "password",
        label: "Password",
        description: "Checks a password.",
        parameters: Type.Object({ secret: Type.String({ pattern: "^(?=.*[0-9])(a|a)+$" }) }),
        execute: async () => textResult("ok"),
      },
      { path: "tools/password.ts", compileValidator: true },
    );
    expect(checked.ok).toBe(false);
    const diagnostic = checked.ok ? undefined : checked.diagnostics[0];
    expect(diagnostic?.code).toBe("E_INVALID_SCHEMA");
    const message = diagnostic?.message ?? "";
    expect(message).toContain('"^(?=.*[0-9])(a|a)+$"');
    expect(message).toContain("schema path /properties/secret/pattern");
    expect(message).toContain("no lookahead, no lookbehind and no backreferences");
    expect(message).toContain("Rewrite the pattern without them");
  });

  it("keeps ECMAScript escapes RE2 spells differently (\\u00e9, named groups)", () => {
    const session = new Session();
    session.register({
      name: "accent",
      label: "Accent",
      description: "Takes an accented word.",
      parameters: Type.Object({ word: Type.String({ pattern: "^(?<head>[a-z\\u00e0-\\u00ff]+)$" }) }),
      execute: async () => textResult("ok"),
    });
    return expect(
      session.execute({ toolCallId: "c1", name: "accent", params: { word: "café" } }),
    ).resolves.toMatchObject({ content: [{ type: "text", text: "ok" }] });
  });
});
