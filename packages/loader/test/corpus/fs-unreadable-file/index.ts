import type { CustomToolAPI } from "@tooldock/sdk";

export default (pi: CustomToolAPI) => ({
  name: "fs_unreadable_file",
  label: "fs_unreadable_file",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "fs_unreadable_file" }] };
  },
});
