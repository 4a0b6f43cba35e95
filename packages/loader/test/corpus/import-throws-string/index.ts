import type { CustomToolAPI } from "@tooldock/sdk";

throw "corpus: a thrown string";

export default (pi: CustomToolAPI) => ({
  name: "import_throws_string",
  label: "import_throws_string",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "import_throws_string" }] };
  },
});
