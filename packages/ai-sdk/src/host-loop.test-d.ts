// The host loops of the README ("Usage" and "Streaming"), compiled by the type check against
// ai 7 so they cannot rot. The README shows the regions below as they are
// (`scripts/readme-snippets.test.ts` compares them; `pnpm docs:snippets` copies them).
// #region imports
import { createAISDKTools } from "@tooldock/ai-sdk";
import { createAstEditTool } from "@tooldock/ast-edit";
import { Session } from "@tooldock/runtime";
import { generateText, type LanguageModel, type ModelMessage, stepCountIs, streamText } from "ai";
// #endregion imports
import { describe, expectTypeOf, it } from "vitest";
import type { AISDKToolOutput } from "./ai-sdk-tool-output.js";

// README: Usage (a conversation, one generateText loop per user turn)
async function usage(model: LanguageModel, userTurns: string[]) {
  // #region usage
  const session = new Session({ cwd: process.cwd() });
  session.register(createAstEditTool({ cwd: process.cwd() }), "built-in"); // or your own tools
  await session.start();
  const messages: ModelMessage[] = [];

  for (const text of userTurns) {
    messages.push({ role: "user", content: text });
    const { tools, prepareStep } = createAISDKTools(session); // a snapshot of the session's tools
    const result = await generateText({
      model,
      messages,
      tools, // every tool, `resolve` included, so the set never changes mid-loop
      prepareStep, // each step: the session's active tools; `resolve` forced while something is pending
      stopWhen: stepCountIs(20),
    });
    messages.push(...result.responseMessages); // every step's messages; tool results carry their reminders
  }

  await session.dispose(); // discards what is still pending
  // #endregion usage
}

// README: Streaming
function streaming(model: LanguageModel, session: Session, messages: ModelMessage[]) {
  // #region streaming
  const { tools, prepareStep } = createAISDKTools(session, {
    onUpdate: (toolCallId, partial) => showProgress(toolCallId, partial.content),
  });
  const result = streamText({ model, messages, tools, prepareStep, stopWhen: stepCountIs(20) });
  // … pipe result.fullStream or result.textStream to your UI; then keep every step:
  void result.responseMessages.then((response) => messages.push(...response));
  return result;
  // #endregion streaming
}

declare function showProgress(toolCallId: string, content: unknown): void;

describe("the README's AI SDK host loops", () => {
  it("type-check against ai 7 with no cast", () => {
    expectTypeOf(usage).toBeFunction();
    expectTypeOf(streaming).toBeFunction();
  });

  it("fit a ToolLoopAgent too", () => {
    const agent = async (model: LanguageModel, session: Session) => {
      const { ToolLoopAgent } = await import("ai");
      return new ToolLoopAgent({ model, ...createAISDKTools(session), stopWhen: stepCountIs(20) });
    };
    expectTypeOf(agent).toBeFunction();
  });

  it("give a ToolSet whose tools return Tooldock results", () => {
    const { tools } = createAISDKTools(new Session());
    expectTypeOf(tools).toExtend<NonNullable<Parameters<typeof generateText>[0]["tools"]>>();
    type Execute = NonNullable<NonNullable<(typeof tools)[string]>["execute"]>;
    expectTypeOf<ReturnType<Execute>>().toExtend<
      AsyncIterable<AISDKToolOutput> | PromiseLike<AISDKToolOutput> | AISDKToolOutput
    >();
  });
});
