import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type OpenAI from "openai";

type Body = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
type Message = OpenAI.Chat.ChatCompletionMessageParam;

/** What the scripted model answers: tool calls, or a final text. */
export type ModelReply = { toolCalls: Array<{ name: string; arguments: unknown }> } | { text: string };

/** The scripted model: called with every request the server accepted. */
export type ScriptedModel = (body: Body) => ModelReply | Promise<ModelReply>;

/**
 * The transcript rules the Chat Completions API enforces (it answers 400 otherwise): every
 * assistant message with `tool_calls` is followed by one `tool` message per call, before any
 * other message; a `tool` message answers a call of the assistant message before it; the
 * request's tools and tool_choice agree. Returns the first broken rule, if any.
 */
export function transcriptProblem(body: Body): string | undefined {
  const messages: Message[] = body.messages;
  let open: Set<string> | undefined;
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") {
      if (!open?.delete(message.tool_call_id))
        return `messages[${index}]: a tool message must answer a tool_call of the preceding assistant message (${message.tool_call_id})`;
      continue;
    }
    if (open && open.size > 0)
      return `messages[${index}]: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'; missing ${[...open].join(", ")}`;
    open = undefined;
    if (message.role === "assistant" && message.tool_calls?.length) {
      open = new Set(message.tool_calls.map((call) => call.id));
    }
  }
  if (open && open.size > 0)
    return `the last assistant message's tool calls have no results: ${[...open].join(", ")}`;
  const choice = body.tool_choice;
  if (choice && typeof choice === "object" && choice.type === "function") {
    const names = (body.tools ?? []).map((tool) => (tool.type === "function" ? tool.function.name : ""));
    if (!names.includes(choice.function.name))
      return `tool_choice names ${choice.function.name}, which is not among the request's tools`;
  }
  return undefined;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A local HTTP server that answers `POST /v1/chat/completions` as the Chat Completions API
 * does, from a scripted model, after checking each request's transcript as the API would.
 * Every request is kept in `requests`.
 */
export async function startFakeOpenAI(model: ScriptedModel) {
  const requests: Body[] = [];
  let calls = 0;
  const server = createServer((request, response) => {
    const reply = (status: number, value: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(value));
    };
    void (async () => {
      if (request.method !== "POST" || request.url !== "/v1/chat/completions")
        return reply(404, { error: { message: `no route ${request.method} ${request.url}` } });
      const body = JSON.parse(await readBody(request)) as Body;
      const problem = transcriptProblem(body);
      if (problem) return reply(400, { error: { message: problem, type: "invalid_request_error" } });
      requests.push(body);
      const answer = await model(body);
      calls += 1;
      const message =
        "text" in answer
          ? { role: "assistant", content: answer.text, refusal: null }
          : {
              role: "assistant",
              content: null,
              refusal: null,
              tool_calls: answer.toolCalls.map((call, index) => ({
                id: `call_${calls}_${index}`,
                type: "function",
                function: {
                  name: call.name,
                  // A string is sent as written, so a test can send arguments that are not JSON.
                  arguments:
                    typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
                },
              })),
            };
      reply(200, {
        id: `chatcmpl-${calls}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          { index: 0, message, finish_reason: "text" in answer ? "stop" : "tool_calls", logprobs: null },
        ],
      });
    })().catch((error: unknown) => reply(500, { error: { message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
