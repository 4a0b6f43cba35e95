import { Type } from "@sinclair/typebox";
import { type CustomTool, textResult } from "@tooldock/sdk";
import type { Session } from "../src/index.js";

/**
 * `rename_preview`, the durable tests' tool: stages "Rename <tag>" (handler `rename`, payload
 * `{ tag }`) and answers "staged"; applying runs `before(tag)` (which may wait or throw), then
 * notes the tag in `applied` and answers "renamed <tag>".
 */
export function renameTool(applied: string[] = [], before?: (tag: string) => Promise<void>): CustomTool {
  return {
    name: "rename_preview",
    label: "Rename preview",
    description: "Stages a rename.",
    parameters: Type.Object({ tag: Type.String() }),
    actions: {
      rename: {
        async apply(payload: { tag: string }) {
          await before?.(payload.tag);
          applied.push(payload.tag);
          return textResult(`renamed ${payload.tag}`);
        },
      },
    },
    async execute(_id, params, _onUpdate, ctx) {
      const { tag } = params as { tag: string };
      ctx.pushPendingAction({ label: `Rename ${tag}`, handler: "rename", payload: { tag } });
      return textResult("staged");
    },
  };
}

/** Calls `rename_preview` with `tag`. */
export const stage = (session: Session, tag: string) =>
  session.execute({ toolCallId: `stage-${tag}`, name: "rename_preview", params: { tag } });

/** Calls `resolve` with `action` and `reason`. */
export const resolve = (session: Session, action: "apply" | "discard", reason = "fine") =>
  session.execute({ toolCallId: `resolve-${action}`, name: "resolve", params: { action, reason } });
