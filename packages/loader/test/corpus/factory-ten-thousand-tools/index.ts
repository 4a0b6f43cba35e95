import type { CustomToolAPI } from "@tooldock/sdk";

export default (pi: CustomToolAPI) =>
  Array.from({ length: 10_000 }, (_, index) => ({
    name: `factory_many_${index}`,
    label: "x",
    description: "One of ten thousand.",
    parameters: pi.typebox.Type.Object({}),
    async execute() {
      return { content: [] };
    },
  }));
