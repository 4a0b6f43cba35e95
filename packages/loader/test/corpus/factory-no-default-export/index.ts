import type { CustomToolAPI } from "@tooldock/sdk";

export const tool = (pi: CustomToolAPI) => ({
  name: "factory_no_default_export",
  label: "factory_no_default_export",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "factory_no_default_export" }] };
  },
});
