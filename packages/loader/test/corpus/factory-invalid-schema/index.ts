import type { CustomToolAPI } from "@tooldock/sdk";

export default (_pi: CustomToolAPI) => ({
  name: "factory_invalid_schema",
  label: "x",
  description: "A corpus tool.",
  parameters: { type: "string" },
  async execute() {
    return { content: [] };
  },
});
