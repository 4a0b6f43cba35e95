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
