import { MockLanguageModelV4 } from "ai/test";

/** What the model receives for one step (the provider-level call options). */
export type ModelCallOptions = MockLanguageModelV4["doGenerateCalls"][number];
type ModelResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;

/** One model turn: tool calls to make, or a final text. */
export type Turn = { calls: Array<{ toolName: string; input: unknown }> } | { text: string };

const usage: ModelResult["usage"] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/**
 * The AI SDK's mock language model answering with `turns`, one per step; `step(n)` is what
 * step `n` received (prompt, tools, toolChoice); `onCall` runs before a step answers.
 */
export function scriptedModel(turns: Turn[], onCall?: (options: ModelCallOptions) => void) {
  let turnIndex = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      onCall?.(options);
      const turn = turns[turnIndex] ?? { text: "(script ended)" };
      const prefix = `step${turnIndex}`;
      turnIndex += 1;
      if ("text" in turn)
        return {
          content: [{ type: "text", text: turn.text }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        };
      return {
        content: turn.calls.map((call, index) => ({
          type: "tool-call" as const,
          toolCallId: `${prefix}-call${index}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        })),
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    },
  });
  /** What step `index` (from 0) received; throws when the loop never reached it. */
  const step = (index: number): ModelCallOptions => {
    const options = model.doGenerateCalls[index];
    if (options === undefined)
      throw new Error(`the loop made ${model.doGenerateCalls.length} model call(s), not step ${index}`);
    return options;
  };
  return { model, step };
}

/** The tool results the model saw in a step's prompt, by toolCallId. */
export function toolOutputsSeen(options: ModelCallOptions): Map<string, unknown> {
  const outputs = new Map<string, unknown>();
  for (const message of options.prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content)
      if (part.type === "tool-result") outputs.set(part.toolCallId, part.output);
  }
  return outputs;
}

/** The names of the tools a step offered. */
export function toolNamesOffered(options: ModelCallOptions): string[] {
  return (options.tools ?? []).map((tool) => tool.name);
}
