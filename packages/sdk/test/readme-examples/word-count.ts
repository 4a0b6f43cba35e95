// The SDK README's TypeBox example, shown as it is below this comment (a snippet: see
// scripts/readme-snippets.mjs). Type-checked by tsc; packages/cli/test/sdk-readme-examples.e2e.test.ts
// runs `tooldock validate --strict` on this folder.
import { defineTool, defineToolFactory, textResult } from "@tooldock/sdk";

export default defineToolFactory((pi) => {
  const { Type } = pi.typebox;
  return defineTool({
    name: "word_count",
    label: "Word count",
    description: "Count the words in a text.",
    parameters: Type.Object(
      { text: Type.String({ description: "The text to count" }) },
      { additionalProperties: false }, // OpenAI strict mode needs closed objects
    ),
    async execute(_toolCallId, params) {
      // params.text is typed `string`
      const words = params.text.split(/\s+/).filter(Boolean).length;
      return textResult(`${words} ${words === 1 ? "word" : "words"}`, { words });
    },
  });
});
