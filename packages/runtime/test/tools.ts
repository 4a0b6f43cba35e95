import { Type } from "@sinclair/typebox";
import { type CustomTool, defineTool, textResult } from "@tooldock/sdk";
import type { SessionToolContext } from "../src/session/tool-context.js";

/** A visible tool that echoes its text argument. */
export function echoTool(name = "echo", extra: Partial<CustomTool> = {}): CustomTool {
  return {
    ...(defineTool({
      name,
      label: "Echo",
      description: "Echoes text",
      parameters: Type.Object({ text: Type.String() }),
      execute: async (_id, params) => textResult(params.text),
    }) as CustomTool),
    ...extra,
  };
}

/** A tool that stages one pending action per call, labelled from its argument, through the session ctx. */
export function stagingTool(
  name: string,
  onApply: (label: string) => void = () => {},
  extra: Partial<CustomTool> = {},
): CustomTool {
  return {
    name,
    label: `Stage (${name})`,
    description: "Stages a change",
    parameters: Type.Object({ label: Type.String() }),
    deferrable: true,
    async execute(_id, params, _onUpdate, ctx) {
      const { label } = params as { label: string };
      const record = (ctx as SessionToolContext).pushPendingAction({
        label,
        apply: async () => {
          onApply(label);
          return textResult(`applied ${label}`);
        },
      });
      return textResult(`Preview of ${label} (pending ${record.id})`);
    },
    ...extra,
  };
}

/**
 * A tool that stages one durable action, "Rename A", run by its `rename` handler: `apply` is
 * what the handler's apply does (its result is "renamed"); `reject`, when given, answers
 * "dropped".
 */
export function durableRenameTool(apply: () => Promise<void>, reject = false): CustomTool {
  return {
    name: "rename_preview",
    label: "Rename preview",
    description: "Stages a rename",
    parameters: Type.Object({}),
    actions: {
      rename: {
        async apply() {
          await apply();
          return textResult("renamed");
        },
        ...(reject ? { reject: async () => textResult("dropped") } : {}),
      },
    },
    async execute(_id, _params, _onUpdate, ctx) {
      ctx.pushPendingAction({ label: "Rename A", handler: "rename", payload: { from: "a", to: "b" } });
      return textResult("staged");
    },
  };
}
