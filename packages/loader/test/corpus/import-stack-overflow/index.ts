import type { CustomToolAPI } from "@tooldock/sdk";

function recurse(depth: number): number {
  return recurse(depth + 1) + 1;
}
recurse(0);

export default (pi: CustomToolAPI) => ({
  name: "import_stack_overflow",
  label: "import_stack_overflow",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "import_stack_overflow" }] };
  },
});
