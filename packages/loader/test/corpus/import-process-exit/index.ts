import type { CustomToolAPI } from "@tooldock/sdk";

process.exit(3);

export default (pi: CustomToolAPI) => ({
  name: "import_process_exit",
  label: "import_process_exit",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "import_process_exit" }] };
  },
});
