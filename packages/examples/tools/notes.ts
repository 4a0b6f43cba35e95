// Shows: one factory returning several tools that share state (a scratchpad kept in the
// factory's closure), and `onSession` to drop that state when the session shuts down.
import type { CustomToolAPI } from "@tooldock/sdk";
import { defineTool, defineToolFactory, textResult } from "@tooldock/sdk";

export default defineToolFactory((pi: CustomToolAPI) => {
  const { Type } = pi.typebox;
  const notes: string[] = [];
  const clearOnShutdown = (event: { reason: string }) => {
    if (event.reason === "shutdown") notes.length = 0;
  };

  const noteAdd = defineTool({
    name: "note_add",
    label: "Add note",
    description: "Keep a short note for later in this session (a plan step, a finding, a reminder).",
    parameters: Type.Object(
      { text: Type.String({ minLength: 1, description: "The note, one or two sentences" }) },
      { additionalProperties: false },
    ),
    async execute(_toolCallId, params) {
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
    async execute() {
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
    async execute() {
      const count = notes.length;
      notes.length = 0;
      pi.logger.debug("notes cleared", { count });
      return textResult(`Cleared ${count} ${count === 1 ? "note" : "notes"}.`, { cleared: count });
    },
  });

  return [noteAdd, noteList, noteClear];
});
