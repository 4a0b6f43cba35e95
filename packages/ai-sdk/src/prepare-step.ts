import type { Session, ToolChoice } from "@tooldock/runtime";
import type { ToolChoice as AISDKToolChoice, ToolSet } from "ai";

/** What {@link createAISDKTools}'s `prepareStep` returns for each step. */
export interface AISDKStepSteering<TOOLS extends ToolSet> {
  /** The session's `activeTools()` names that are in the tool set, in registration order. */
  activeTools: Array<keyof TOOLS & string>;
  /** The session's `toolChoice()` in the AI SDK's shape. */
  toolChoice: AISDKToolChoice<TOOLS>;
}

/**
 * A `prepareStep` that reads the session before each step: `resolve` is active and forced
 * (`{ type: "tool", toolName: "resolve" }`) exactly while an action is pending; otherwise the
 * session's visible (and exposed hidden) tools and its configured choice.
 */
export function sessionPrepareStep<TOOLS extends ToolSet>(
  session: Session,
  tools: TOOLS,
): () => AISDKStepSteering<TOOLS> {
  return () => ({
    activeTools: session
      .activeTools()
      .map((tool) => tool.name)
      .filter((name): name is keyof TOOLS & string => Object.hasOwn(tools, name)),
    toolChoice: toAISDKToolChoice<TOOLS>(session.toolChoice()),
  });
}

/** A session's tool choice in the AI SDK's shape (`name` becomes `toolName`). */
function toAISDKToolChoice<TOOLS extends ToolSet>(choice: ToolChoice): AISDKToolChoice<TOOLS> {
  if (typeof choice === "string") return choice;
  return { type: "tool", toolName: choice.name as Extract<keyof TOOLS, string> };
}
