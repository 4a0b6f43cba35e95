import type { CustomToolAPI } from "@tooldock/sdk";

export default (pi: CustomToolAPI) => ({
  name: "names_shared",
  label: "names_shared",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "names_shared" }] };
  },
});
