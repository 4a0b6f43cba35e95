// `tooldock inspect` in a real browser: Chromium driven by playwright-core (the system's
// Chromium, no browser download) against the built CLI serving a copy of the example tools.
import { existsSync, readFileSync } from "node:fs";
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { assertBuilt, examplesDir, tempDir } from "./cli-process.js";
import { browserForTests, openInspectPage } from "./inspect-browser.js";

const browserSetup = browserForTests();

describe.skipIf(browserSetup.skipReason !== undefined)(
  `tooldock inspect in Chromium${browserSetup.skipReason ? ` (skipped: ${browserSetup.skipReason})` : ""}`,
  () => {
    let browser: Browser;

    beforeAll(async () => {
      assertBuilt();
      browser = await chromium.launch({ executablePath: browserSetup.executablePath });
    });
    afterAll(async () => {
      await browser?.close();
    });

    /** A copy of the examples (`tools/`, or `toolsFrom`) plus `files`, served by `tooldock inspect`; a page on it. */
    async function openInspect(
      files: Record<string, string>,
      toolsFrom = join(examplesDir, "tools"),
    ): Promise<{ page: Page; folder: string }> {
      const folder = await tempDir(files);
      onTestFinished(folder.remove);
      await cp(toolsFrom, join(folder.path, "tools"), { recursive: true });
      const { page, server } = await openInspectPage(folder.path, {
        browser,
        viewport: { width: 1280, height: 900 },
      });
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(error.message));
      onTestFinished(() => expect(problems).toEqual([]));
      await page.goto(server.url);
      await page.getByRole("heading", { name: "Tools" }).waitFor();
      // The page took the token from the fragment and dropped it from the address bar.
      expect(new URL(page.url()).hash).toBe("");
      return { page, folder: folder.path };
    }

    it("previews a batch rename through the form, shows the pending action, applies it and the files are renamed", async () => {
      const { page, folder } = await openInspect({ "notes/a-draft.md": "a", "notes/b-draft.md": "b" });
      // Keyboard only where it matters: the tool is chosen and the action applied with keys.
      await page.getByRole("button", { name: /^batch_rename_preview/ }).focus();
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Call batch_rename_preview" }).waitFor();
      // files has minItems 1: the form starts with one item.
      await page.locator('[data-field="/files/0"] input').fill("notes/a-draft.md");
      await page.getByRole("button", { name: "Add to files" }).click();
      await page.locator('[data-field="/files/1"] input').fill("notes/b-draft.md");
      await page.locator('[data-field="/find"] input').fill("draft");
      await page.locator('[data-field="/replace"] input').fill("final");
      // regex is a required boolean: its checkbox starts unchecked (false), which is what we want.
      await page.getByRole("button", { name: "Call batch_rename_preview" }).click();

      const result = page.getByTestId("result").filter({ hasText: "Result of batch_rename_preview" });
      await result.getByText('Preview: Rename 2 files: "draft" → "final"').waitFor();

      const action = page.getByTestId("pending-action");
      await action.getByText('Rename 2 files: "draft" → "final"').waitFor();
      expect(await action.count()).toBe(1);
      expect(await action.locator("dd code").first().textContent()).toBe("batch_rename_preview");
      expect(await action.locator(".renames").textContent()).toContain("notes/a-draft.md → notes/a-final.md");
      expect(await page.getByText("Tool choice is forced to resolve").count()).toBe(1);

      const apply = page.getByRole("button", { name: "Apply" });
      expect(await apply.isDisabled()).toBe(true); // no reason yet
      await page.getByLabel("Reason (required)").fill("the names read better");
      await page.keyboard.press("Tab"); // from the reason to Apply
      expect(
        await apply.evaluate(
          (button) => button === (button.ownerDocument as { activeElement: unknown }).activeElement,
        ),
      ).toBe(true);
      await page.keyboard.press("Enter");
      await page.getByText("Nothing is pending.").waitFor();
      await page
        .getByTestId("result")
        .filter({ hasText: "resolve apply" })
        .getByText("Renamed 2 files")
        .waitFor();
      expect(existsSync(join(folder, "notes/a-final.md"))).toBe(true);
      expect(existsSync(join(folder, "notes/b-final.md"))).toBe(true);
      expect(existsSync(join(folder, "notes/a-draft.md"))).toBe(false);
      // The event log saw the call, the push, the reminder and the resolution.
      const log = page.getByTestId("event-log");
      // The label holds double quotes (`"draft-" → ""`), so the log sets it in curly ones.
      await log.getByText(/applied “Rename 2 files: /).waitFor();
      const text = (await log.textContent()) ?? "";
      for (const expected of ["call batch_rename_preview", "staged", "reminder", "resolve returned ok"])
        expect(text).toContain(expected);
    });

    it("shows an ast_edit preview's diff, discards it with a reason and the file is unchanged", async () => {
      const source = 'export function greet(name: string) {\n  console.log("hello", name);\n}\n';
      const { page, folder } = await openInspect({ "src/greet.ts": source });
      await page.getByRole("button", { name: /^ast_edit/ }).click();
      await page.locator('[data-field="/ops/0/pat"] input').fill("console.log($$$ARGS)");
      await page.locator('[data-field="/ops/0/out"] input').fill("logger.info($$$ARGS)");
      await page.locator('[data-field="/path"] input').fill("src");
      // Invalid input is shown next to its field: limit must be at least 1.
      await page.locator('[data-field="/limit"] input').fill("0");
      await page
        .locator('[data-field="/limit"]')
        .getByText(/greater or equal to 1|>= 1|minimum/i)
        .waitFor();
      await page.locator('[data-field="/limit"] input').fill("");
      await page.getByRole("button", { name: "Call ast_edit" }).click();

      const action = page.getByTestId("pending-action");
      await action.getByText("AST Edit: 1 replacement in 1 file").waitFor();
      const diff = action.locator("figure.diff-file");
      expect(await diff.locator("figcaption").textContent()).toContain("src/greet.ts");
      expect(await diff.locator(".diff-remove").allTextContents()).toEqual([
        '-  console.log("hello", name);\n',
      ]);
      expect(await diff.locator(".diff-add").allTextContents()).toEqual(['+  logger.info("hello", name);\n']);

      await page.getByLabel("Reason (required)").fill("keep console output for now");
      await page.getByRole("button", { name: "Discard" }).click();
      await page.getByText("Nothing is pending.").waitFor();
      await page.getByTestId("result").filter({ hasText: "resolve discard" }).waitFor();
      await page
        .getByTestId("event-log")
        .getByText(/discarded "AST Edit/)
        .waitFor();
      expect(readFileSync(join(folder, "src/greet.ts"), "utf8")).toBe(source);

      // Readable in a narrow window: one column, nothing wider than the window.
      await page.setViewportSize({ width: 400, height: 800 });
      const overflow = await page.evaluate<number>(
        "document.documentElement.scrollWidth - window.innerWidth",
      );
      expect(overflow).toBeLessThanOrEqual(0);
    });

    it("streams a call's partial results, cancels it, shows a failed apply staying pending, and reloads an edited folder", async () => {
      const { page, folder } = await openInspect(
        {},
        fileURLToPath(new URL("./fixtures/inspect/", import.meta.url)),
      );
      await page.getByRole("button", { name: /^echo/ }).click();
      await page.locator('[data-field="/text"] input').fill("picture");
      await page.getByRole("button", { name: "Call echo" }).click();
      const picture = page.getByTestId("result").getByRole("img", { name: "Result block 2, image/png" });
      await picture.waitFor();
      expect(
        await picture.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
      ).toBe(1);

      await page.locator('[data-field="/text"] input').fill("wait");
      await page.getByRole("button", { name: "Call echo" }).click();
      await page.getByTestId("partials").getByText("working on wait").waitFor();
      await page.getByRole("button", { name: "Cancel" }).click();
      const result = page.getByTestId("result").filter({ hasText: "Result of echo" });
      await result.getByText('Tool "echo" was aborted').waitFor();
      expect(await result.locator(".badge-error").textContent()).toBe("isError");

      // stage_note's first apply throws: the action stays on top, marked with the cause.
      await page.getByRole("button", { name: /^stage_note/ }).click();
      await page.locator('[data-field="/note"] input').fill("draft");
      await page.getByRole("button", { name: "Call stage_note" }).click();
      await page.getByTestId("pending-action").getByText('Write note "draft"').waitFor();
      await page.getByLabel("Reason (required)").fill("try it");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.getByTestId("apply-failure").getByText("Apply failed: the disk is busy").waitFor();
      expect(await page.getByTestId("pending-action").count()).toBe(1);

      // Editing the tool folder reloads the tools into the same session: the page lists the new
      // tool, the log says so, and the pending action is still there.
      await writeFile(
        join(folder, "tools/extra.ts"),
        'export default (pi) => ({ name: "extra_tool", label: "Extra", description: "Added while serving.", ' +
          "parameters: pi.typebox.Type.Object({}), async execute() { return { content: [] }; } });\n",
      );
      await page.getByRole("button", { name: /^extra_tool/ }).waitFor();
      await page
        .getByTestId("event-log")
        .getByText(/reloaded after a change to .*extra\.ts: added extra_tool/)
        .waitFor();
      expect(await page.getByTestId("pending-action").count()).toBe(1);

      await page.getByRole("button", { name: "Apply" }).click();
      await page.getByText("Nothing is pending.").waitFor();
      await page
        .getByTestId("result")
        .filter({ hasText: "resolve apply" })
        .getByText("note written")
        .waitFor();
    });
  },
);
