import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { Session } from "../../src/session/session.js";

/**
 * Attack: a tool module sets `Object.prototype.execute`. The lookup of a called tool told a
 * registered tool from its "unknown tool" result by `"execute" in lookup`, which then held
 * for the result too: a call of an unknown name ran the pipeline on that result and answered
 * "the session failed while handling the call" instead of naming the tools the model may
 * call. Fixed: the lookup checks for an own `execute`.
 */
const prototype = Object.prototype as Record<string, unknown>;

afterEach(() => {
  delete prototype.execute;
});

describe("Object.prototype.execute set by a tool module", () => {
  it("still answers a call of an unknown tool with the tools that exist", async () => {
    const session = new Session();
    session.register({
      name: "known_tool",
      label: "Known",
      description: "A tool that exists.",
      parameters: Type.Object({}),
      execute: async () => textResult("ran"),
    });
    prototype.execute = () => textResult("hijacked");
    const result = await session.execute({ toolCallId: "call-1", name: "missing_tool", params: {} });
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    expect(result.isError).toBe(true);
    expect(text).toContain('"missing_tool"');
    expect(text).toContain("known_tool");
    expect(text).not.toContain("failed while handling the call");
  });
});
