import type { CustomToolAPI } from "@tooldock/sdk";

await new Promise(() => {});

export default (pi: CustomToolAPI) => ({
  name: "import_tla_never_settles",
  label: "import_tla_never_settles",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "import_tla_never_settles" }] };
  },
});
