import type { CustomToolAPI } from "@tooldock/sdk";

setTimeout(() => process.exit(9), 0);

export default (pi: CustomToolAPI) => ({
  name: "import_process_exit_timer",
  label: "import_process_exit_timer",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "import_process_exit_timer" }] };
  },
});
