// Shows: one factory returning several tools that share state (a scratchpad per session, kept
// in the factory's closure), and `onSession` to drop a session's state when it shuts down. A
// host loads the factory once for all its sessions (the chat server: one per conversation),
// so the state is keyed by `ctx.sessionId`: one conversation never sees another's notes.
import type { CustomToolAPI, CustomToolContext } from "@tooldock/sdk";
import { defineTool, defineToolFactory, textResult } from "@tooldock/sdk";

export default defineToolFactory((pi: CustomToolAPI) => {
  const { Type } = pi.typebox;
  const scratchpads = new Map<string, string[]>();
  const notesOf = (ctx: CustomToolContext) => {
    const notes = scratchpads.get(ctx.sessionId) ?? [];
    scratchpads.set(ctx.sessionId, notes);
    return notes;
  };
  const clearOnShutdown = (event: { reason: string }, ctx: CustomToolContext) => {
    if (event.reason === "shutdown") scratchpads.delete(ctx.sessionId);
  };

  const noteAdd = defineTool({
    name: "note_add",
    label: "Add note",
    description: "Keep a short note for later in this session (a plan step, a finding, a reminder).",
    parameters: Type.Object(
      { text: Type.String({ minLength: 1, description: "The note, one or two sentences" }) },
      { additionalProperties: false },
    ),
    async execute(_toolCallId, params, _onUpdate, ctx) {
      const notes = notesOf(ctx);
      notes.push(params.text.trim());
      return textResult(`Noted (#${notes.length}).`, { count: notes.length });
    },
    onSession: clearOnShutdown,
  });

  const noteList = defineTool({
    name: "note_list",
    label: "List notes",
    description: "List every note kept in this session, oldest first.",
    parameters: Type.Object({}, { additionalProperties: false }),
    async execute(_toolCallId, _params, _onUpdate, ctx) {
      const notes = notesOf(ctx);
      if (notes.length === 0) return textResult("No notes yet. Add one with `note_add`.", { notes: [] });
      return textResult(notes.map((note, index) => `${index + 1}. ${note}`).join("\n"), {
        notes: [...notes],
      });
    },
  });

  const noteClear = defineTool({
    name: "note_clear",
    label: "Clear notes",
    description: "Forget every note kept in this session.",
    parameters: Type.Object({}, { additionalProperties: false }),
    async execute(_toolCallId, _params, _onUpdate, ctx) {
      const notes = notesOf(ctx);
      const count = notes.length;
      notes.length = 0;
      pi.logger.debug("notes cleared", { count });
      return textResult(`Cleared ${count} ${count === 1 ? "note" : "notes"}.`, { cleared: count });
    },
  });

  return [noteAdd, noteList, noteClear];
});
