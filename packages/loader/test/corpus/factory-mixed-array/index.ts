import type { CustomToolAPI } from "@tooldock/sdk";

export default (pi: CustomToolAPI) => [
  {
    name: "factory_mixed_valid",
    label: "factory_mixed_valid",
    description: "A corpus tool.",
    parameters: pi.typebox.Type.Object({}),
    async execute() {
      return { content: [{ type: "text" as const, text: "factory_mixed_valid" }] };
    },
  },
  { name: "factory_mixed_invalid", label: "x", description: "No execute.", parameters: pi.typebox.Type.Object({}) },
];
