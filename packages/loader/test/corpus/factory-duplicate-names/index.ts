import type { CustomToolAPI } from "@tooldock/sdk";

export default (pi: CustomToolAPI) => [
  {
    name: "factory_duplicate",
    label: "factory_duplicate",
    description: "A corpus tool.",
    parameters: pi.typebox.Type.Object({}),
    async execute() {
      return { content: [{ type: "text" as const, text: "factory_duplicate" }] };
    },
  },
  {
    name: "factory_duplicate",
    label: "factory_duplicate",
    description: "A corpus tool.",
    parameters: pi.typebox.Type.Object({}),
    async execute() {
      return { content: [{ type: "text" as const, text: "factory_duplicate" }] };
    },
  },
];
