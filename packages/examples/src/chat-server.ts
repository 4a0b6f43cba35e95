// The root README's host: a chat server with many conversations on one ToolHost, driving an
// OpenAI Chat Completions model. The README shows this file as it is (a test compares them),
// and the type check compiles it, so the example cannot rot.
import { loadCustomTools, ToolHost } from "@tooldock/loader";
import { type PendingActionJournal, Session, toOpenAIRequest, toOpenAIToolMessage } from "@tooldock/runtime";
import type { Logger } from "@tooldock/sdk";
import type OpenAI from "openai";

type Message = OpenAI.Chat.ChatCompletionMessageParam;
/** One model call: `(body) => openai.chat.completions.create(body)` in production. */
export type Complete = (
  body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
) => Promise<OpenAI.Chat.ChatCompletion>;

export interface ChatServerOptions {
  toolsPath: string;
  cwd: string;
  model: string;
  complete: Complete;
  logger?: Logger;
  /** Model calls per user message before the server gives up. Default: 8. */
  maxSteps?: number;
  /**
   * Where pending actions outlive this process: `openSqliteJournal(path)` for one process
   * that restarts, `await openPostgresJournal(url)` for several. A conversation opened again
   * (after a restart, or in another process) gets its pending actions back. Default: memory.
   */
  journal?: PendingActionJournal;
}

export async function createChatServer(options: ChatServerOptions) {
  // One host per process: one `pi`, one copy of each loaded tool, for every conversation.
  const host = new ToolHost({ cwd: options.cwd, logger: options.logger });
  const { tools, diagnostics } = await loadCustomTools({
    paths: [options.toolsPath],
    cwd: options.cwd,
    host,
  });
  type Conversation = { session: Session; messages: Message[]; turn: Promise<unknown> };
  const conversations = new Map<string, Conversation>();
  const opening = new Set<string>();

  // One session per conversation: its own pending stack, its own `ctx.cwd`.
  async function open(id: string, cwd = options.cwd) {
    if (conversations.has(id) || opening.has(id)) throw new Error(`Conversation "${id}" is already open.`);
    opening.add(id); // before the first await: two opens at once must not make two sessions
    try {
      const { journal } = options;
      const session = journal
        ? await Session.open({ sessionId: id, cwd, journal })
        : new Session({ sessionId: id, cwd });
      for (const loaded of tools) session.register(loaded.tool, loaded.path);
      await session.start();
      conversations.set(id, { session, messages: [], turn: Promise.resolve() });
    } finally {
      opening.delete(id);
    }
  }

  // Runs one user message to the model's final answer. A tool call's staged action is
  // reminded after the call's result (`reminder` comes after `tool-call-end`), so the
  // transcript stays `assistant (tool_calls) → tool… → user (reminder)`, as OpenAI requires.
  async function runTurn(id: string, conversation: Conversation, text: string): Promise<string> {
    const { session, messages } = conversation;
    const reminders: string[] = [];
    const unsubscribe = session.subscribe((event) => {
      if (event.type === "reminder") reminders.push(event.text);
    });
    try {
      // Another process may have staged or resolved this conversation's actions meanwhile.
      await session.pending.refresh();
      messages.push({ role: "user", content: text });
      for (let step = 0; step < (options.maxSteps ?? 8); step++) {
        // Built from the session every step: `tool_choice` forces `resolve` while something is pending.
        const completion = await options.complete({
          model: options.model,
          messages,
          ...toOpenAIRequest(session),
        });
        const message = completion.choices[0]?.message;
        if (!message) throw new Error(`The model returned no message in conversation "${id}".`);
        messages.push(message);
        const calls = (message.tool_calls ?? []).filter((call) => call.type === "function");
        // A refusal comes with `content: null` and its reason in `refusal`.
        if (calls.length === 0) return message.content ?? message.refusal ?? "";
        for (const call of calls) {
          const params = parseArguments(call.function.arguments);
          const result = await session.execute({ toolCallId: call.id, name: call.function.name, params });
          messages.push(toOpenAIToolMessage(call.id, result));
        }
        for (const reminder of reminders.splice(0)) messages.push({ role: "user", content: reminder });
      }
      return `Stopped after ${options.maxSteps ?? 8} model calls without a final answer.`;
    } finally {
      unsubscribe();
    }
  }

  return {
    diagnostics,
    open,
    /** One message at a time per conversation; different conversations run concurrently. */
    send(id: string, text: string): Promise<string> {
      const conversation = conversations.get(id);
      if (!conversation) return Promise.reject(new Error(`No conversation "${id}"; open it first.`));
      // The conversation it was sent to: close() lets it run before the session ends.
      const reply = conversation.turn.then(() => runTurn(id, conversation, text));
      conversation.turn = reply.catch(() => undefined);
      return reply;
    },
    transcript: (id: string): readonly Message[] => conversations.get(id)?.messages ?? [],
    /**
     * Ends a conversation here once the messages already sent to it are answered (a message
     * sent after is refused): its tools hear `shutdown`; what is pending is discarded, but
     * with a `journal` its durable actions stay for the next process that opens it.
     */
    async close(id: string) {
      const conversation = conversations.get(id);
      conversations.delete(id);
      await conversation?.turn;
      await conversation?.session.dispose();
    },
  };
}

// Arguments the model wrote as invalid JSON are passed on as the raw string: the session
// answers with an error result that says the arguments must be an object.
function parseArguments(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
