import type { CustomToolAPI } from "@tooldock/sdk";

const broken: = 1;

export default (pi: CustomToolAPI) => ({
  name: "compile_ts_syntax",
  label: "compile_ts_syntax",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "compile_ts_syntax" }] };
  },
});
