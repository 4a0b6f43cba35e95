import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";
import { lintDescriptions, lintTopLevelObject } from "./description-lints.js";
import { lintOpenAIStrict } from "./openai-strict.js";
import { lintProviderNames } from "./provider-name-rules.js";

/**
 * The contract lints `validate --strict` adds, as warnings (which `--strict` then fails on):
 * descriptions, a top-level object schema, provider name rules and OpenAI strict mode. No tool
 * at all is `E_NOTHING_TO_VALIDATE`, `--strict` or not.
 */
export function lintTools(tools: readonly ToolEntry[]): Diagnostic[] {
  return tools.flatMap((tool) => [
    ...lintDescriptions(tool),
    ...lintTopLevelObject(tool),
    ...lintProviderNames(tool),
    ...lintOpenAIStrict(tool),
  ]);
}
