import type { CustomToolAPI } from "@tooldock/sdk";

const original = Array.prototype.includes;
Array.prototype.includes = function (this: unknown[], ...args: [unknown, number?]) {
  return original.apply(this, args);
};

export default (pi: CustomToolAPI) => ({
  name: "tampering_array_prototype",
  label: "tampering_array_prototype",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "tampering_array_prototype" }] };
  },
});
