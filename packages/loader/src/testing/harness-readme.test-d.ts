// The loader README's harness example of a failing call ("Testing your tools"), compiled by the
// type check so it cannot rot. The README shows the region below as it is
// (`scripts/readme-snippets.test.ts` compares them; `pnpm docs:snippets` copies them).
import { expect, it } from "vitest";
import { createToolHarness } from "./index.js";

// #region fault
it("says where the tool failed", async () => {
  const harness = await createToolHarness({ paths: "./src/save-note.ts" });
  const result = await harness.call("save_note", { text: "" });
  expect(result.isError).toBe(true); // the model read `Tool "save_note" failed: …`
  // What the tool threw, its source-mapped stack, and its own line in save-note.ts:
  expect(result.error).toMatchObject({
    message: "text must not be empty",
    name: "RangeError",
    location: { file: expect.stringMatching(/save-note\.ts$/), line: 14 },
  });
  expect(result.error?.stack).toContain("save-note.ts:14:");
  await harness.dispose();
});
// #endregion fault
