import { Type } from "@sinclair/typebox";
import { type AgentToolResult, type CustomTool, textResult } from "@tooldock/sdk";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { deferred, textOf } from "../../../test/fake-context.js";
import { echoTool } from "../../../test/tools.js";
import { Session } from "../session.js";

function toolReturning(name: string, execute: CustomTool["execute"]): CustomTool {
  return { name, label: name, description: name, parameters: Type.Object({}), execute };
}

function run(session: Session, name: string, params: unknown = {}, extra: { signal?: AbortSignal } = {}) {
  return session.execute({ toolCallId: `call-${name}`, name, params, ...extra });
}

describe("Session.execute", () => {
  it("runs a tool with validated params and returns its result", async () => {
    const session = new Session();
    session.register(echoTool());
    expect(await run(session, "echo", { text: "hello" })).toEqual(textResult("hello"));
  });

  it("passes zod's parsed output to the tool", async () => {
    const session = new Session();
    const execute = vi.fn(async (_id: string, _params: unknown) => textResult("ok"));
    session.register({
      name: "count",
      label: "Count",
      description: "c",
      parameters: z.object({ n: z.coerce.number().default(3) }),
      execute,
    });
    await run(session, "count", {});
    expect(execute.mock.calls[0]?.[1]).toEqual({ n: 3 });
  });

  it("answers an unknown tool with the available ones", async () => {
    const session = new Session();
    session.register(echoTool("alpha"));
    session.register(echoTool("beta"));
    session.register(echoTool("secret", { hidden: true }));
    const result = await run(session, "gamma");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Unknown tool "gamma". Available tools: alpha, beta. Call one of the available tools instead.',
    );
  });

  it("answers invalid arguments with each path and problem, without running the tool", async () => {
    const session = new Session();
    const execute = vi.fn(async () => textResult("ran"));
    session.register({
      name: "files",
      label: "Files",
      description: "f",
      parameters: Type.Object({ files: Type.Array(Type.String()), mode: Type.String() }),
      execute,
    });
    const result = await run(session, "files", { files: ["a", 2] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      [
        'Invalid arguments for tool "files":',
        "- /mode: Expected required property",
        "- /files/1: Expected string",
        "Fix the arguments to match the tool's parameters and call it again.",
      ].join("\n"),
    );
    expect(execute).not.toHaveBeenCalled();
  });

  it("reports a schema no validator can compile as the tool's fault", async () => {
    const session = new Session();
    session.register({
      ...echoTool("odd"),
      // TypeBox cannot compile Type.Unsafe, and Ajv cannot resolve the $ref.
      parameters: Type.Object({ mode: Type.Unsafe<string>({ $ref: "#/definitions/missing" }) }),
    });
    const result = await run(session, "odd", { mode: "x" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Tool "odd" cannot check its arguments: .*fault in the tool/);
  });

  it.each([
    ["an Error", new Error("disk full"), "disk full"],
    ["a string", "plain failure", "plain failure"],
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
    ["a number", 42, "42"],
    ["an object", { reason: "x" }, '{"reason":"x"}'],
  ])("turns a throw of %s into an error result", async (_name, thrown, shown) => {
    const session = new Session();
    session.register(
      toolReturning("boom", async () => {
        throw thrown;
      }),
    );
    const result = await run(session, "boom");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `Tool "boom" failed: ${shown}. Check the arguments and the current state, then retry or try another approach.`,
    );
  });

  it("catches a synchronous throw from a non-async execute", async () => {
    const session = new Session();
    session.register(
      toolReturning("sync", () => {
        throw new Error("sync fault");
      }),
    );
    expect(textOf(await run(session, "sync"))).toContain('Tool "sync" failed: sync fault.');
  });

  it.each([
    ["undefined", undefined, "expected an object with a content array, got undefined"],
    ["a string", "done", "expected an object with a content array, got string"],
    ["no content", { details: 1 }, "content must be an array of blocks, got undefined"],
    ["content not an array", { content: "text" }, "content must be an array of blocks, got string"],
    [
      "a bad block",
      { content: [{ type: "text", text: "a" }, { type: "text" }] },
      "content[1] is not a valid block",
    ],
    ["an unknown block", { content: [{ type: "video", data: "x" }] }, "content[0] is not a valid block"],
    [
      "audio without mimeType",
      { content: [{ type: "audio", data: "x" }] },
      "content[0] is not a valid block",
    ],
    [
      "a link without a name",
      { content: [{ type: "resource_link", uri: "file:///a" }] },
      "content[0] is not a valid block",
    ],
    [
      "a resource with both text and blob",
      { content: [{ type: "resource", resource: { uri: "file:///a", text: "a", blob: "YQ==" } }] },
      "content[0] is not a valid block",
    ],
    [
      "an image without mimeType",
      { content: [{ type: "image", data: "x" }] },
      "content[0] is not a valid block",
    ],
    ["a non-boolean isError", { content: [], isError: "yes" }, "isError must be a boolean, got string"],
  ])("turns a malformed result (%s) into an error result", async (_name, value, problem) => {
    const session = new Session();
    session.register(toolReturning("bad", async () => value as AgentToolResult));
    const result = await run(session, "bad");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`Tool "bad" returned a malformed result: ${problem}`);
    expect(textOf(result)).toContain("fault in the tool");
  });

  it("passes on a well-formed image result (as a fresh copy) and an isError result", async () => {
    const session = new Session();
    const image = { content: [{ type: "image" as const, data: "AAAA", mimeType: "image/png" }] };
    session.register(toolReturning("img", async () => image));
    session.register(
      toolReturning("err", async () => ({ content: [{ type: "text", text: "no" }], isError: true })),
    );
    const copied = await run(session, "img");
    expect(copied).toEqual(image);
    expect(copied).not.toBe(image); // read once into a plain object: the host never runs the tool's getters
    expect(await run(session, "err")).toEqual({ content: [{ type: "text", text: "no" }], isError: true });
  });

  it("passes on audio, resource links and embedded resources with only their own fields", async () => {
    const session = new Session();
    const content = [
      { type: "audio" as const, data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource_link" as const, uri: "file:///q3.md", name: "q3.md", description: "figures" },
      { type: "resource" as const, resource: { uri: "file:///a.txt", text: "alpha" } },
      {
        type: "resource" as const,
        resource: { uri: "file:///b.bin", mimeType: "application/octet-stream", blob: "AA==" },
      },
    ];
    const extra = { secret: "not for the client" };
    session.register(
      toolReturning("attach", async () => ({ content: content.map((block) => ({ ...block, ...extra })) })),
    );
    expect(await run(session, "attach")).toEqual({ content });
  });
});

describe("Session.execute abort", () => {
  it("answers at once when the host aborts, even if the tool ignores its signal", async () => {
    const session = new Session();
    const gate = deferred<AgentToolResult>();
    let toolSignal: AbortSignal | undefined;
    session.register(
      toolReturning("slow", (_id, _params, _onUpdate, _ctx, signal) => {
        toolSignal = signal;
        return gate.promise;
      }),
    );
    const controller = new AbortController();
    const pending = run(session, "slow", {}, { signal: controller.signal });
    controller.abort(new Error("user pressed stop"));
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Tool "slow" was aborted before it finished (user pressed stop). Its work may be partial: check the current state before calling it again.',
    );
    expect(toolSignal?.aborted).toBe(true);
    gate.reject(new Error("late failure")); // must not surface anywhere
  });

  it("does not run the tool when the signal is already aborted", async () => {
    const session = new Session();
    const execute = vi.fn(async () => textResult("ran"));
    session.register(toolReturning("never", execute));
    const result = await run(session, "never", {}, { signal: AbortSignal.abort("stop") });
    expect(textOf(result)).toContain('Tool "never" was aborted before it finished (stop).');
    expect(execute).not.toHaveBeenCalled();
  });

  it("lets a tool abort its own call through ctx.abort()", async () => {
    const session = new Session();
    session.register(
      toolReturning("quitter", async (_id, _params, _onUpdate, ctx) => {
        ctx.abort();
        return textResult("should not be seen");
      }),
    );
    const result = await run(session, "quitter");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('The tool "quitter" aborted its own call.');
  });

  it("forwards updates while running and drops them after the call ended", async () => {
    const session = new Session();
    let late: (() => void) | undefined;
    session.register(
      toolReturning("progress", async (_id, _params, onUpdate) => {
        onUpdate?.(textResult("50%"));
        late = () => onUpdate?.(textResult("too late"));
        return textResult("done");
      }),
    );
    const updates: string[] = [];
    await session.execute({
      toolCallId: "p",
      name: "progress",
      params: {},
      onUpdate: (partial) => updates.push(textOf(partial)),
    });
    late?.();
    expect(updates).toEqual(["50%"]);
  });
});
