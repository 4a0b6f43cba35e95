import type { CustomToolAPI } from "@tooldock/sdk";

(Object.prototype as Record<string, unknown>).polluted = true;

export default (pi: CustomToolAPI) => ({
  name: "tampering_object_prototype",
  label: "tampering_object_prototype",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "tampering_object_prototype" }] };
  },
});
