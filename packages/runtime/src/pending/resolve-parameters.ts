import { type Static, Type } from "@sinclair/typebox";

/** The `resolve` tool's parameters (docs/contract.md §3): both required. */
export const ResolveParameters = Type.Object(
  {
    action: Type.Union([Type.Literal("apply"), Type.Literal("discard")], {
      description: '"apply" makes the pending change for real; "discard" drops it.',
    }),
    reason: Type.String({
      minLength: 1,
      pattern: "\\S",
      description: "Why you apply or discard it, in a sentence.",
    }),
  },
  { additionalProperties: false },
);

/** Arguments of the `resolve` tool. */
export type ResolveParams = Static<typeof ResolveParameters>;

/** True when `value` has the shape of {@link ResolveParams}; used when resolve runs outside a session. */
export function isResolveParams(value: unknown): value is ResolveParams {
  if (typeof value !== "object" || value === null) return false;
  const { action, reason } = value as Record<string, unknown>;
  return (action === "apply" || action === "discard") && typeof reason === "string" && reason.trim() !== "";
}
