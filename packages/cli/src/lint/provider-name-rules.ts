import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";
import { lintDiagnostic } from "./lint-diagnostic.js";

/** Function-name rules of each provider's tool API, as documented by the provider. */
export const PROVIDER_NAME_RULES: ReadonlyArray<{ provider: string; pattern: RegExp; rule: string }> = [
  {
    provider: "OpenAI",
    pattern: /^[A-Za-z0-9_-]{1,64}$/,
    rule: "a-z, A-Z, 0-9, _ and -, at most 64 characters",
  },
  {
    provider: "Anthropic",
    pattern: /^[A-Za-z0-9_-]{1,64}$/,
    rule: "a-z, A-Z, 0-9, _ and -, at most 64 characters",
  },
  {
    provider: "Gemini",
    pattern: /^[A-Za-z_][A-Za-z0-9_-]{0,62}$/,
    rule: "starts with a letter or _, then a-z, A-Z, 0-9, _ and -, at most 63 characters",
  },
];

/** A tool name some provider rejects (`W_PROVIDER_NAME`), naming each provider and its rule. */
export function lintProviderNames(tool: ToolEntry): Diagnostic[] {
  const rejecting = PROVIDER_NAME_RULES.filter((rule) => !rule.pattern.test(tool.name));
  if (rejecting.length === 0) return [];
  const list = rejecting.map((rule) => `${rule.provider} (${rule.rule})`).join("; ");
  return [
    lintDiagnostic(
      tool,
      "W_PROVIDER_NAME",
      `Tool name "${tool.name}" is rejected by ${list}.`,
      "Use letters, digits and _ only, start with a letter, and stay under 64 characters.",
    ),
  ];
}
