import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";

/** What the model receives for one step (the provider-level call options). */
export type ModelCallOptions = MockLanguageModelV4["doGenerateCalls"][number];
type ModelResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer Part>
    ? Part
    : never;

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
  /** The next turn, with the toolCallId prefix of its step. */
  const next = (options: ModelCallOptions) => {
    onCall?.(options);
    const turn = turns[turnIndex] ?? { text: "(script ended)" };
    const prefix = `step${turnIndex}`;
    turnIndex += 1;
    return "text" in turn
      ? { text: turn.text, calls: [] }
      : {
          text: undefined,
          calls: turn.calls.map((call, index) => ({
            type: "tool-call" as const,
            toolCallId: `${prefix}-call${index}`,
            toolName: call.toolName,
            input: JSON.stringify(call.input),
          })),
        };
  };
  const finishReason = (text: string | undefined): ModelResult["finishReason"] =>
    text === undefined ? { unified: "tool-calls", raw: "tool_calls" } : { unified: "stop", raw: "stop" };
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      const { text, calls } = next(options);
      return {
        content: text === undefined ? calls : [{ type: "text", text }],
        finishReason: finishReason(text),
        usage,
        warnings: [],
      };
    },
    doStream: async (options) => {
      const { text, calls } = next(options);
      const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (text !== undefined)
        parts.push(
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: text },
          { type: "text-end", id: "t" },
        );
      parts.push(...calls, { type: "finish", finishReason: finishReason(text), usage });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
  /** What step `index` (from 0) received; throws when the loop never reached it. */
  const step = (index: number): ModelCallOptions => {
    const calls = [...model.doGenerateCalls, ...model.doStreamCalls];
    const options = calls[index];
    if (options === undefined)
      throw new Error(`the loop made ${calls.length} model call(s), not step ${index}`);
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
