// The SDK README's zod example, shown as it is below this comment (a snippet: see
// scripts/readme-snippets.mjs). Type-checked by tsc; packages/cli/test/sdk-readme-examples.e2e.test.ts
// runs `tooldock validate --strict` on this folder.
import { defineTool, defineToolFactory, errorResult, textResult } from "@tooldock/sdk";

export default defineToolFactory((pi) => {
  const z = pi.zod;
  return defineTool({
    name: "http_status",
    label: "HTTP status",
    description: "Explain an HTTP status code.",
    // z.strictObject: a closed object, as OpenAI strict mode needs
    parameters: z.strictObject({ code: z.number().int().min(100).max(599).describe("The status code") }),
    async execute(_toolCallId, params) {
      // params.code is typed `number`
      if (params.code === 418) return textResult("I'm a teapot");
      return errorResult(`No explanation for ${params.code}. Try a common code such as 404.`);
    },
  });
});
