import type { CustomToolAPI } from "@tooldock/sdk";

export default (pi: CustomToolAPI) => ({
  name: "bad name/with slash",
  label: "bad name/with slash",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "bad name/with slash" }] };
  },
});
