import type { CustomToolAPI } from "@tooldock/sdk";

export default (pi: CustomToolAPI) => ({
  name: "factory_missing_execute",
  label: "factory_missing_execute",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
});
