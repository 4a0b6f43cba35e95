import { Type } from "@sinclair/typebox";
import {
  type CustomTool,
  type CustomToolContext,
  type CustomToolDurableAction,
  type CustomToolPendingAction,
  defineTool,
  textResult,
} from "@tooldock/sdk";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { PendingActionStore } from "../pending/pending-action-store.js";
import { createResolveTool } from "../pending/resolve-tool.js";
import type { ToolCallFault } from "./execute/tool-call-fault.js";
import { Session } from "./session.js";
import type { SessionEvent } from "./session-events.js";
import type { SessionToolContext } from "./tool-context.js";

describe("Session types", () => {
  it("registers tools declared with defineTool, TypeBox or zod, without casts", () => {
    const session = new Session();
    session.register(
      defineTool({
        name: "typebox_tool",
        label: "T",
        description: "t",
        parameters: Type.Object({ path: Type.String() }),
        execute: async (_id, params) => textResult(params.path),
      }),
    );
    session.register(
      defineTool({
        name: "zod_tool",
        label: "Z",
        description: "z",
        parameters: z.object({ count: z.number() }),
        execute: async (_id, params) => textResult(String(params.count)),
      }),
    );
    session.register(createResolveTool(new PendingActionStore()));
  });

  it("gives built-ins a context that is a CustomToolContext plus pushPendingAction", () => {
    expectTypeOf<SessionToolContext>().toExtend<CustomToolContext>();
    expectTypeOf<SessionToolContext["pushPendingAction"]>()
      .parameter(0)
      .toEqualTypeOf<CustomToolPendingAction | CustomToolDurableAction>();
    expectTypeOf(createResolveTool(new PendingActionStore())).toExtend<CustomTool>();
  });

  it("narrows a tool-call-fault event to its fault kind and accepts exposeHiddenTools", () => {
    const onEvent = (event: SessionEvent) => {
      if (event.type === "tool-call-fault") expectTypeOf(event.fault).toEqualTypeOf<ToolCallFault>();
    };
    new Session({ exposeHiddenTools: ["admin"] }).subscribe(onEvent);
    new Session({ exposeHiddenTools: true, executeTimeoutMs: 0, maxResultChars: Number.POSITIVE_INFINITY });
  });
});
