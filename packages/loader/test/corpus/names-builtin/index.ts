import type { CustomToolAPI } from "@tooldock/sdk";

export default (pi: CustomToolAPI) => ({
  name: "ast_edit",
  label: "ast_edit",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "ast_edit" }] };
  },
});
