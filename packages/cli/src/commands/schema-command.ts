import { ToolHost } from "@tooldock/loader";
import { asSchema, Session, toAnthropicRequest, toGeminiRequest, toOpenAIRequest } from "@tooldock/runtime";
import { stringOption } from "../args/parse-command-args.js";
import { readIsolation } from "../isolate/isolation-flags.js";
import type { LoadedTools } from "../load/load-tools.js";
import { loadTools } from "../load/load-tools.js";
import { withNothingFound } from "../load/nothing-found.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import type { CommandContext } from "./command.js";
import type { SCHEMA_PROVIDERS } from "./command-specs.js";
import { readOpencode, toolPathArgs } from "./tool-path-options.js";

type Provider = (typeof SCHEMA_PROVIDERS)[number];

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

/** Runs `tooldock schema` (spec: `schemaSpec`): the tool definitions a model API needs. */
export async function run({ io, output, args }: CommandContext): Promise<number> {
  const provider = (stringOption(args, "provider") ?? "json") as Provider;
  const isolation = readIsolation(args, io, "schema", false);
  const opencode = readOpencode(args);
  const paths = toolPathArgs(args);
  const session = new Session({ cwd: io.cwd });
  const host = new ToolHost({ cwd: io.cwd });
  host.setActiveSession(session);
  let loaded: LoadedTools | undefined;
  try {
    loaded = await loadTools({
      io,
      output,
      paths,
      command: "schema",
      session,
      host,
      isolation,
      opencode,
    });
    // No tool at all is an error, as for validate: `schema > tools.json` must not write `[]` and pass.
    const report = await withNothingFound(loaded.report, paths, "schema", { cwd: io.cwd, opencode });
    if (report.diagnostics.length > 0)
      output.printError(...formatDiagnostics(report.diagnostics, output.errorColors, io.cwd));
    if (report !== loaded.report && loaded.report.tools.length === 0) return 1;
    output.printJson(definitions(session, provider));
    return report.diagnostics.some((diagnostic) => diagnostic.severity === "error") ? 1 : 0;
  } finally {
    await session.dispose();
    await loaded?.close();
  }
}
