import type { CustomToolAPI } from "@tooldock/sdk";

throw null;

export default (pi: CustomToolAPI) => ({
  name: "import_throws_null",
  label: "import_throws_null",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "import_throws_null" }] };
  },
});
