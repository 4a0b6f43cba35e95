import type { CustomToolAPI } from "@tooldock/sdk";

export default (pi: CustomToolAPI) => ({
  name: "fs_unreadable_folder",
  label: "fs_unreadable_folder",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "fs_unreadable_folder" }] };
  },
});
