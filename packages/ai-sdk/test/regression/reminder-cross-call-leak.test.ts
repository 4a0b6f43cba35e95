// Attack: the AI SDK runs a step's tool calls concurrently, and the session emits each
// `reminder` on one event stream for all calls. A listener that took every reminder (or the
// last one) while its call ran would put call A's "resolve Write a.txt" into call B's output,
// or the host's own pushes (no toolCallId) into whichever call was running: the model would be
// told about an action in the wrong result. Reminders are routed by the call's toolCallId.
import { Session } from "@tooldock/runtime";
import { textResult } from "@tooldock/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AISDKToolOutput, createAISDKTools } from "../../src/index.js";
import { tempFolder, writeFilePreviewTool } from "../fixture-tools.js";

const options = (toolCallId: string) => ({ toolCallId, messages: [], context: {} });

describe("regression: a reminder reaches only the output of the call that staged it", () => {
  let folder: Awaited<ReturnType<typeof tempFolder>>;
  let session: Session;

  beforeEach(async () => {
    folder = await tempFolder();
    session = new Session({ cwd: folder.path, pendingPolicy: "allow" });
    session.register(writeFilePreviewTool(folder.path), "test");
  });

  afterEach(async () => {
    await session.dispose();
    await folder.remove();
  });

  it("keeps the reminders of 20 concurrent previews apart", async () => {
    const { tools } = createAISDKTools(session);
    const execute = tools.write_file_preview?.execute;
    if (execute === undefined) throw new Error("write_file_preview has no execute");
    const outputs = (await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        execute({ path: `f${index}.txt`, text: String(index) }, options(`call-${index}`)),
      ),
    )) as AISDKToolOutput[];

    outputs.forEach((output, index) => {
      expect(output.reminders).toHaveLength(1);
      expect(output.reminders[0]).toContain(`discard Write f${index}.txt (`);
    });
    expect(session.pending.list()).toHaveLength(20);
  });

  it("leaves out a push of the host's own (no toolCallId) made while a call runs", async () => {
    const hostPush = session.subscribe((event) => {
      if (event.type === "tool-call-start")
        session.pending.push({ label: "Host action", apply: async () => textResult("done") });
    });
    const { tools } = createAISDKTools(session);
    const output = (await tools.write_file_preview?.execute?.(
      { path: "a.txt", text: "a" },
      options("call-a"),
    )) as AISDKToolOutput;
    hostPush();

    expect(output.reminders).toHaveLength(1);
    expect(output.reminders[0]).toContain("discard Write a.txt (");
    expect(
      session.pending
        .list()
        .map((record) => record.label)
        .sort(),
    ).toEqual(["Host action", "Write a.txt"]);
  });
});
