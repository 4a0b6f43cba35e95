import { ToolHost } from "@tooldock/loader";
import { Session, type SessionToolContext } from "@tooldock/runtime";
import { defineTool, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { connectInMemory } from "./mcp-in-memory.js";

// TypeBox as tool authors get it: the host's single copy, handed over as `pi.typebox`.
const { Type } = new ToolHost().createAPI().typebox;

const readFile = defineTool({
  name: "read_note",
  label: "Read note",
  description: "Reads a note.",
  parameters: Type.Object({}),
  annotations: { readOnlyHint: true, openWorldHint: false },
  execute: async () => textResult("note"),
});

const deleteNote = defineTool({
  name: "delete_note",
  label: "Delete note",
  description: "Deletes a note at once.",
  parameters: Type.Object({}),
  annotations: { title: "Delete a note", destructiveHint: true, idempotentHint: true },
  execute: async () => textResult("deleted"),
});

const plain = defineTool({
  name: "plain",
  label: "Plain",
  description: "Says nothing about itself.",
  parameters: Type.Object({}),
  execute: async () => textResult("plain"),
});

/** A preview tool: it stages the change, `resolve` makes it. */
const stageNote = defineTool({
  name: "stage_note",
  label: "Stage note",
  description: "Stages a note.",
  deferrable: true,
  parameters: Type.Object({}),
  async execute(_id, _params, _onUpdate, ctx) {
    (ctx as SessionToolContext).pushPendingAction({
      label: "Write the note",
      apply: async () => textResult("written"),
    });
    return textResult("preview");
  },
});

/** A deferrable tool that also writes directly, and says so. */
const stageAndLog = defineTool({
  ...stageNote,
  name: "stage_and_log",
  annotations: { readOnlyHint: false, destructiveHint: false },
});

describe("tools/list annotations (tooldock mcp)", () => {
  it("serves the author's annotations, over the title and Tooldock's defaults", async () => {
    const session = new Session();
    for (const tool of [readFile, deleteNote, plain, stageNote, stageAndLog]) session.register(tool);
    const { client } = await connectInMemory(session);
    const listed = Object.fromEntries(
      (await client.listTools()).tools.map((tool) => [tool.name, tool.annotations]),
    );
    expect(listed).toEqual({
      read_note: { title: "Read note", readOnlyHint: true, openWorldHint: false },
      delete_note: { title: "Delete a note", destructiveHint: true, idempotentHint: true },
      // No hint: MCP's defaults apply (not read-only, destructive, open world).
      plain: { title: "Plain" },
      // A preview changes nothing by itself.
      stage_note: { title: "Stage note", readOnlyHint: true },
      stage_and_log: { title: "Stage note", readOnlyHint: false, destructiveHint: false },
      // Listed from the start by default (resolve: "always"): it makes the staged changes.
      resolve: { title: "Resolve", readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    });
  });

  it("lists resolve as destructive and not idempotent once something is pending", async () => {
    const session = new Session();
    session.register(stageNote);
    const { client } = await connectInMemory(session);
    await client.callTool({ name: "stage_note", arguments: {} });
    const resolve = (await client.listTools()).tools.find((tool) => tool.name === "resolve");
    expect(resolve?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
  });
});
