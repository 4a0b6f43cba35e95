import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { textOf } from "../../test/fake-context.js";
import { echoTool } from "../../test/tools.js";
import { toAnthropicRequest } from "../steering/anthropic-request.js";
import { toGeminiRequest } from "../steering/gemini-request.js";
import { toOpenAIRequest } from "../steering/openai-request.js";
import { Session } from "./session.js";
import type { SessionOptions } from "./session-options.js";

function sessionWith(options: SessionOptions = {}): Session {
  const session = new Session(options);
  session.register(echoTool("visible"));
  session.register(echoTool("admin", { hidden: true }));
  session.register(echoTool("debug", { hidden: true }));
  return session;
}

const names = (session: Session) => session.activeTools().map((tool) => tool.name);

describe("exposeHiddenTools", () => {
  it("offers no hidden tool by default", () => {
    expect(names(sessionWith())).toEqual(["visible"]);
  });

  it("offers every hidden tool with true, and only the named ones with a list", () => {
    expect(names(sessionWith({ exposeHiddenTools: true }))).toEqual(["visible", "admin", "debug"]);
    expect(names(sessionWith({ exposeHiddenTools: ["debug", "not-registered"] }))).toEqual([
      "visible",
      "debug",
    ]);
  });

  it("never changes resolve: offered exactly while something is pending", () => {
    const session = sessionWith({ exposeHiddenTools: true });
    expect(names(session)).not.toContain("resolve");
    session.pending.push({ label: "Write a.txt", apply: async () => textResult("ok") });
    expect(names(session)).toEqual(["resolve", "visible", "admin", "debug"]);
    expect(names(sessionWith({ exposeHiddenTools: ["resolve"] }))).not.toContain("resolve");
  });

  it("reaches every provider adapter", () => {
    const session = sessionWith({ exposeHiddenTools: ["admin"] });
    expect(toAnthropicRequest(session).tools.map((tool) => tool.name)).toEqual(["visible", "admin"]);
    expect(toOpenAIRequest(session).tools.map((tool) => tool.function.name)).toEqual(["visible", "admin"]);
    const [gemini] = toGeminiRequest(session).tools;
    expect(gemini.functionDeclarations.map((tool) => tool.name)).toEqual(["visible", "admin"]);
  });

  it("lists exposed hidden tools as available when the model calls an unknown one", async () => {
    const session = sessionWith({ exposeHiddenTools: ["admin"] });
    const result = await session.execute({ toolCallId: "t", name: "nope", params: {} });
    expect(textOf(result)).toBe(
      'Unknown tool "nope". Available tools: visible, admin. Call one of the available tools instead.',
    );
  });
});
