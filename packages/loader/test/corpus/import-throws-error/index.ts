import type { CustomToolAPI } from "@tooldock/sdk";

throw new Error("corpus: thrown at import");

export default (pi: CustomToolAPI) => ({
  name: "import_throws_error",
  label: "import_throws_error",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "import_throws_error" }] };
  },
});
