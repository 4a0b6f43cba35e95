import { openAIStrictProblems } from "@tooldock/runtime";
import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";
import { lintDiagnostic } from "./lint-diagnostic.js";

/**
 * A schema OpenAI's strict mode cannot take even once rewritten (`W_OPENAI_STRICT`), one
 * diagnostic per tool naming each construct. The check is `@tooldock/runtime`'s
 * `toProviderSchema`, by which `toOpenAIResponsesRequest` sets `strict`.
 */
export function lintOpenAIStrict(tool: ToolEntry): Diagnostic[] {
  const problems = openAIStrictProblems(tool.parameters);
  if (problems.length === 0) return [];
  return [
    lintDiagnostic(
      tool,
      "W_OPENAI_STRICT",
      `OpenAI strict mode cannot take the parameters of tool "${tool.name}", which goes with strict: false:\n${problems.map((problem) => `- ${problem}`).join("\n")}`,
      "Strict mode needs every property to accept null where it may be absent (zod `.nullish()`, TypeBox " +
        "`Type.Union([T, Type.Null()])`), a type on every value (zod `z.unknown()` and TypeBox `Type.Any()` " +
        "have none), no tuple or record, and unions whose branches exclude each other (a discriminator " +
        "property with a literal in each). The tool works without strict mode.",
    ),
  ];
}
