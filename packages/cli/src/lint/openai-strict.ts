import { openAIStrictProblems } from "@tooldock/runtime";
import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";
import { lintDiagnostic } from "./lint-diagnostic.js";

/**
 * A schema OpenAI rejects with `strict: true` (`W_OPENAI_STRICT`), one diagnostic per tool. The
 * check itself is `@tooldock/runtime`'s, by which `toOpenAIResponsesRequest` sets `strict`.
 */
export function lintOpenAIStrict(tool: ToolEntry): Diagnostic[] {
  const problems = openAIStrictProblems(tool.parameters);
  if (problems.length === 0) return [];
  return [
    lintDiagnostic(
      tool,
      "W_OPENAI_STRICT",
      `OpenAI strict mode rejects the parameters of tool "${tool.name}":\n${problems.map((problem) => `- ${problem}`).join("\n")}`,
      "Mark every object `additionalProperties: false` (zod: `.strict()`), make each property required " +
        "(a nullable type where it may be absent), and avoid the keywords listed.",
    ),
  ];
}
