// The README's chat server (chat-server.ts), run offline: a scripted model stands in for
// OpenAI. It opens two conversations on one host, each in its own folder, asks both at once
// to rename files, and lets the model apply in one and discard in the other. Replace
// `scriptedModel()` with `(body) => openai.chat.completions.create(body)` to use a real model.
//
//   node packages/examples/dist/host.js [tools-folder]
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Logger } from "@tooldock/sdk";
import type OpenAI from "openai";
import { type Complete, createChatServer } from "./chat-server.js";

/** Options of {@link runExampleHost}. */
export interface ExampleHostOptions {
  /** Tool modules to load: a file, a folder or a package folder. */
  toolsPath: string;
  /** The working folder of each conversation; each must hold `draft-a.txt` and `draft-b.txt`. */
  folders: { apply: string; discard: string };
  /** Where the host prints. Default: `console.log`. */
  log?: (line: string) => void;
}

type Message = OpenAI.Chat.ChatCompletionMessageParam;

const textOf = (message: Message | undefined) =>
  typeof message?.content === "string" ? message.content : "";

/**
 * A stand-in for the model: it previews the rename the first user message asks for, calls
 * `resolve` whenever the request forces it (with the action the user asked for), and answers
 * with the text of the last tool result otherwise. Every request it gets is logged.
 */
export function scriptedModel(log: (line: string) => void): Complete {
  let calls = 0;
  return async (body) => {
    calls += 1;
    const conversation = textOf(body.messages[0]);
    const choice = JSON.stringify(body.tool_choice);
    const tools = body.tools?.length ?? 0;
    log(`→ model (${conversation}): ${tools} ${tools === 1 ? "tool" : "tools"}, tool_choice ${choice}`);
    const apply = conversation.includes("apply");
    const last = body.messages.at(-1);
    const call = (name: string, args: unknown): OpenAI.Chat.ChatCompletionMessageFunctionToolCall => ({
      id: `call_${calls}`,
      type: "function",
      function: { name, arguments: JSON.stringify(args) },
    });
    const forced = typeof body.tool_choice === "object" && body.tool_choice.type === "function";
    const message: OpenAI.Chat.ChatCompletionMessage = forced
      ? {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            call(
              "resolve",
              apply ? { action: "apply", reason: "Approved." } : { action: "discard", reason: "Declined." },
            ),
          ],
        }
      : last?.role === "tool"
        ? { role: "assistant", content: textOf(last), refusal: null }
        : {
            role: "assistant",
            content: null,
            refusal: null,
            tool_calls: [
              call("batch_rename_preview", {
                files: ["draft-a.txt", "draft-b.txt"],
                find: "draft-",
                replace: "final-",
                regex: false,
              }),
            ],
          };
    return {
      id: `chatcmpl-${calls}`,
      object: "chat.completion",
      created: 0,
      model: body.model,
      choices: [
        { index: 0, message, finish_reason: message.tool_calls ? "tool_calls" : "stop", logprobs: null },
      ],
    };
  };
}

/** Runs both conversations and returns each one's final answer. */
export async function runExampleHost(
  options: ExampleHostOptions,
): Promise<{ apply: string; discard: string }> {
  const log = options.log ?? console.log;
  const logger: Logger = {
    debug: () => undefined,
    info: (message) => log(`[tool] ${message}`),
    warn: (message) => log(`[tool warning] ${message}`),
    error: (message) => log(`[tool error] ${message}`),
  };
  const server = await createChatServer({
    toolsPath: options.toolsPath,
    cwd: options.folders.apply,
    model: "gpt-4.1",
    complete: scriptedModel(log),
    logger,
  });
  for (const d of server.diagnostics)
    log(`${d.severity} ${d.code} ${d.path}: ${d.message} (${d.hint ?? ""})`);
  try {
    await server.open("apply", options.folders.apply);
    await server.open("discard", options.folders.discard);
    const [apply, discard] = await Promise.all([
      server.send("apply", "Rename the drafts to final-, then apply."),
      server.send("discard", "Rename the drafts to final-, then discard."),
    ]);
    for (const id of ["apply", "discard"]) {
      log(`Transcript of "${id}":`);
      for (const message of server.transcript(id)) {
        const calls = message.role === "assistant" ? (message.tool_calls ?? []) : [];
        const said = calls.map((c) =>
          c.type === "function" ? `${c.function.name}(${c.function.arguments})` : "",
        );
        log(`  ${message.role}: ${said.length > 0 ? said.join(", ") : textOf(message).split("\n")[0]}`);
      }
    }
    return { apply, discard };
  } finally {
    // Closing discards anything still pending and tells tools the session is over.
    await Promise.all([server.close("apply"), server.close("discard")]);
  }
}

/** `node dist/host.js [tools-folder]`: runs the example in two temporary folders. */
async function main(): Promise<void> {
  const toolsPath = process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url));
  const root = await mkdtemp(join(tmpdir(), "tooldock-host-"));
  const folders = { apply: join(root, "apply"), discard: join(root, "discard") };
  try {
    for (const folder of Object.values(folders)) {
      await mkdir(folder);
      await writeFile(join(folder, "draft-a.txt"), "a\n");
      await writeFile(join(folder, "draft-b.txt"), "b\n");
    }
    const answers = await runExampleHost({ toolsPath: resolve(toolsPath), folders });
    console.log(`Answers: ${JSON.stringify(answers)}`);
    for (const [id, folder] of Object.entries(folders))
      console.log(`Files in "${id}": ${(await readdir(folder)).sort().join(", ")}`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
