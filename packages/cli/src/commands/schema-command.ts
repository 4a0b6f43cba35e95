import { ToolHost } from "@tooldock/loader";
import { asSchema, Session, toAnthropicRequest, toGeminiRequest, toOpenAIRequest } from "@tooldock/runtime";
import { stringOption } from "../args/parse-command-args.js";
import { loadTools } from "../load/load-tools.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import type { Command } from "./command.js";
import { DEFAULT_PATHS_HELP, toolPathArgs, toolsOption } from "./tool-path-options.js";

const PROVIDERS = ["json", "openai", "anthropic", "gemini"] as const;
type Provider = (typeof PROVIDERS)[number];

/** The `tools` value of each provider's request, from the session's active tools. */
function definitions(session: Session, provider: Provider): unknown {
  switch (provider) {
    case "openai":
      return toOpenAIRequest(session).tools;
    case "anthropic":
      return toAnthropicRequest(session).tools;
    case "gemini":
      return toGeminiRequest(session).tools;
    default:
      return session.activeTools().map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: asSchema(tool.parameters).jsonSchema,
      }));
  }
}

/** `tooldock schema [paths…] [--provider json|openai|anthropic|gemini]`. */
export const schemaCommand: Command = {
  spec: {
    name: "schema",
    summary: "Print the tool definitions a model API needs",
    usage: "tooldock schema [paths…] [--tools PATH]… [--provider json|openai|anthropic|gemini]",
    options: {
      tools: toolsOption,
      provider: {
        type: "string",
        valueName: "NAME",
        choices: PROVIDERS,
        description: "The request shape (default json: name, description, JSON Schema parameters)",
      },
    },
    positionals: { min: 0, max: Number.POSITIVE_INFINITY },
    details: [
      DEFAULT_PATHS_HELP,
      "Prints the `tools` array of the provider's request (Gemini: its `tools` with functionDeclarations), for the tools offered to the model (hidden tools left out). Diagnostics go to stderr; exit code 1 when a module failed to load.",
    ],
  },
  async run({ io, output, args }) {
    const provider = (stringOption(args, "provider") ?? "json") as Provider;
    const session = new Session({ cwd: io.cwd });
    const host = new ToolHost({ cwd: io.cwd });
    host.setActiveSession(session);
    try {
      const { report } = await loadTools({
        io,
        output,
        paths: toolPathArgs(args),
        command: "schema",
        session,
        host,
      });
      if (report.diagnostics.length > 0)
        output.printError(...formatDiagnostics(report.diagnostics, output.errorColors, io.cwd));
      output.printJson(definitions(session, provider));
      return report.diagnostics.some((diagnostic) => diagnostic.severity === "error") ? 1 : 0;
    } finally {
      await session.dispose();
    }
  },
};
