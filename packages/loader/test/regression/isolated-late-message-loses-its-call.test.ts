// Found by a bug hunt: a tool's pi.sendMessage from a timer after its call returned reached an
// in-process host with the session, call and tool that sent it (as the README promises: "also
// after it ended"), but an isolated one with none of them: the tool host left the call out of
// a message sent after the call had ended, and the host no longer knew the call anyway.
import { describe, expect, it } from "vitest";
import { TOOL_MESSAGE_CHANNEL, ToolHost, type ToolMessageEvent } from "../../src/index.js";
import { load, project } from "../isolation/isolation-helpers.js";

const LATE = `
import { Type } from "@sinclair/typebox";
export default (pi) => ({
  name: "late",
  label: "Late",
  description: "Sends a message once its call has returned",
  parameters: Type.Object({}),
  async execute() {
    setTimeout(() => pi.sendMessage({ content: "done later" }), 20);
    return { content: [{ type: "text", text: "started" }] };
  },
});
`;

describe("a tool's pi.sendMessage after its call returned", () => {
  for (const mode of ["none", "process"] as const) {
    it(`names the session, call and tool that sent it (${mode})`, async () => {
      const where = await project({ "late.ts": LATE });
      const host = new ToolHost({ cwd: where.work });
      const received = new Promise<ToolMessageEvent>((resolve) =>
        host.events.on(TOOL_MESSAGE_CHANNEL, (event) => resolve(event as ToolMessageEvent)),
      );
      const { session } = await load(where, mode, { host });
      await session.execute({ toolCallId: "call-7", name: "late", params: {} });
      expect(await received).toEqual({
        message: { content: "done later" },
        sessionId: session.id,
        toolCallId: "call-7",
        toolName: "late",
      });
    });
  }
});
