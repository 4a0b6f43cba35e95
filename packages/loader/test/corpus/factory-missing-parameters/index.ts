import type { CustomToolAPI } from "@tooldock/sdk";

export default (pi: CustomToolAPI) => ({
  name: "factory_missing_parameters",
  label: "factory_missing_parameters",
  description: "A corpus tool.",
  async execute() {
    return { content: [{ type: "text" as const, text: "factory_missing_parameters" }] };
  },
});
