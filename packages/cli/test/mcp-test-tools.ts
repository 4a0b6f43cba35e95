import { ToolHost } from "@tooldock/loader";
import { defineTool, textResult } from "@tooldock/sdk";
import { vi } from "vitest";

// TypeBox as tool authors get it: the host's single copy, handed over as `pi.typebox`.
const { Type } = new ToolHost().createAPI().typebox;

/** `echo { text }`: answers the text. */
export const echo = defineTool({
  name: "echo",
  label: "Echo",
  description: "Repeats the text.",
  parameters: Type.Object({ text: Type.String() }),
  execute: async (_id, params) => textResult(params.text),
});

/**
 * `stage { what }`: a deferrable tool that stages `Change <what>` per call and answers
 * `Preview: change <what>`; applying answers `applied because <reason>`. `apply` and `reject`
 * are spies.
 */
export function stagingTool() {
  const apply = vi.fn(async (reason: string) => textResult(`applied because ${reason}`));
  const reject = vi.fn(async (_reason: string) => undefined);
  const tool = defineTool({
    name: "stage",
    label: "Stage",
    description: "Stages a change.",
    deferrable: true,
    parameters: Type.Object({ what: Type.String() }),
    async execute(_id, params, _onUpdate, ctx) {
      ctx.pushPendingAction({ label: `Change ${params.what}`, apply, reject });
      return textResult(`Preview: change ${params.what}`);
    },
  });
  return { tool, apply, reject };
}
