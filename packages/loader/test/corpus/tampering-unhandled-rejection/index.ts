import type { CustomToolAPI } from "@tooldock/sdk";

Promise.reject(new Error("corpus: nobody handles this"));

export default (pi: CustomToolAPI) => ({
  name: "tampering_unhandled_rejection",
  label: "tampering_unhandled_rejection",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "tampering_unhandled_rejection" }] };
  },
});
