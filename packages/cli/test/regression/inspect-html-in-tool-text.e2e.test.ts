// Attack: a tool module puts HTML and script in everything the inspect page shows (label,
// description, parameter description, result text, an SVG image with onload, an image
// mimeType that breaks out of its attribute, a pending label, a diff and its file name), to
// run code in the page, which holds the token and can apply pending actions. Fix: the page
// renders tool text as text only (Preact escapes; no innerHTML anywhere), shows images only of
// four raster types, and its Content-Security-Policy allows no inline script at all.

import { cp } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { assertBuilt, tempDir } from "../cli-process.js";
import { browserForTests, openInspectPage } from "../inspect-browser.js";

const browserSetup = browserForTests();
const hostileTools = fileURLToPath(new URL("../fixtures/inspect-hostile/", import.meta.url));

describe.skipIf(browserSetup.skipReason !== undefined)(
  `regression: HTML in a tool's text on the inspect page${browserSetup.skipReason ? ` (skipped: ${browserSetup.skipReason})` : ""}`,
  () => {
    it("shows every text as text and runs none of it", async () => {
      assertBuilt();
      const folder = await tempDir();
      onTestFinished(folder.remove);
      await cp(hostileTools, join(folder.path, "tools"), { recursive: true });
      const { page, server } = await openInspectPage(folder.path, {
        executablePath: browserSetup.executablePath,
      });
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(server.url);
      await page.getByRole("button", { name: /^hostile/ }).click();
      await page.getByRole("button", { name: "Call hostile" }).click();
      await page.getByTestId("pending-action").locator("figure.diff-file").waitFor();
      await page.getByTestId("result").waitFor();

      // The markup is on the page as text...
      const body = (await page.locator("body").textContent()) ?? "";
      for (const id of ["label", "description", "parameter", "result", "pending", "diff", "path"])
        expect(body).toContain(`<img id="${id}" src="x"`);
      // ...and none of it became an element or ran.
      expect(await page.locator("img[id], script:not([src])").count()).toBe(0);
      expect(await page.locator('img[src^="data:image/svg"]').count()).toBe(0);
      expect(await page.title()).toBe("tooldock inspect");
      expect(dialogs).toEqual([]);
    });
  },
);
