// `tooldock mcp --store` and `tooldock inspect --store` (issue 28, item 4): a server's durable
// actions outlive it, and the next server (or page) shows and resolves them. Against a private
// PostgreSQL server (Debian's postgresql; skipped with the reason outside CI when missing), the
// suite's Node; the page in the system's Chromium.
import { existsSync } from "node:fs";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { describePostgres } from "../../../scripts/describe-postgres.js";
import { assertBuilt, examplesDir, runCli, tempDir } from "./cli-process.js";
import { browserForTests, PAGE_WAIT_MS, startInspectProcess } from "./inspect-browser.js";
import { startMcpChild } from "./mcp-child.js";

const renameTool = join(examplesDir, "tools/batch-rename-preview.ts");
const textOf = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? [])
    .map((block) => block.text ?? "")
    .join("\n");

describePostgres("servers on a durable store", { timeout: 120_000 }, (cluster) => {
  beforeAll(() => {
    assertBuilt();
  });

  it("tooldock mcp --store: a preview staged through one server is applied through `resolve` by the next one", async () => {
    const folder = await tempDir({ "plan-draft.md": "a plan\n" });
    onTestFinished(folder.remove);
    const args = ["--store", cluster().url, "--session", "mcp-1", renameTool];
    const first = await startMcpChild(args, folder.path);
    onTestFinished(first.kill);
    const preview = await first.client.callTool({
      name: "batch_rename_preview",
      arguments: { files: ["plan-draft.md"], find: "draft", replace: "final", regex: false },
    });
    expect(textOf(preview)).toContain('Preview: Rename 1 file: "draft" → "final"');
    first.closeStdin(); // the client goes away
    expect(await first.exited).toBe(0);
    await first.stderrIncludes('keeping 1 pending action in the store: Rename 1 file: "draft" → "final"');

    const second = await startMcpChild(args, folder.path);
    onTestFinished(second.kill);
    await second.stderrIncludes('(session "mcp-1": 1 action pending)');
    const applied = await second.client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "the user approved it after the restart" },
    });
    expect(applied.isError).toBeFalsy();
    expect(textOf(applied)).toContain("plan-draft.md → plan-final.md");
    expect(existsSync(join(folder.path, "plan-final.md"))).toBe(true);
    second.closeStdin();
    expect(await second.exited).toBe(0);
  });

  it("tooldock mcp --http refuses --store, and says why", async () => {
    const run = await runCli(["mcp", "--http", "--store", cluster().url, renameTool]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--store serves one durable session over stdio");
  });

  const browserSetup = browserForTests();
  describe.skipIf(browserSetup.skipReason !== undefined)(
    `tooldock inspect --store in Chromium${browserSetup.skipReason ? ` (skipped: ${browserSetup.skipReason})` : ""}`,
    () => {
      let browser: Browser;
      beforeAll(async () => {
        browser = await chromium.launch({ executablePath: browserSetup.executablePath });
      });
      afterAll(async () => {
        await browser?.close();
      });

      it("shows a durable action staged by `tooldock call --store`, its history, applies it, and lists it as settled", async () => {
        const folder = await tempDir({ "todo-draft.md": "a list\n" });
        onTestFinished(folder.remove);
        await cp(join(examplesDir, "tools"), join(folder.path, "tools"), { recursive: true });
        const args = JSON.stringify({
          files: ["todo-draft.md"],
          find: "draft",
          replace: "done",
          regex: false,
        });
        const call = await runCli(
          [
            "call",
            "batch_rename_preview",
            "tools",
            "--args",
            args,
            "--store",
            cluster().url,
            "--session",
            "page-1",
          ],
          { cwd: folder.path },
        );
        expect(call.code).toBe(0);

        const server = await startInspectProcess(folder.path, [
          "tools",
          "--store",
          cluster().url,
          "--session",
          "page-1",
        ]);
        onTestFinished(async () => {
          expect(await server.stop()).toBe(0);
        });
        expect(server.output()).toContain("Pending actions are kept in");
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        onTestFinished(() => context.close());
        const page = await context.newPage();
        page.setDefaultTimeout(PAGE_WAIT_MS);
        const problems: string[] = [];
        page.on("pageerror", (error) => problems.push(error.message));
        onTestFinished(() => expect(problems).toEqual([]));
        await page.goto(server.url);

        const action = page.getByTestId("pending-action");
        await action.getByText('Rename 1 file: "draft" → "done"').waitFor();
        expect(await action.getByTestId("durable-handler").locator("code").textContent()).toBe("rename");
        expect(await action.getByTestId("action-history").textContent()).toContain("staged");
        await page.getByTestId("store").getByText("page-1").waitFor();

        await page.getByLabel("Reason (required)").fill("reviewed on the page");
        await page.getByRole("button", { name: "Apply" }).click();
        await page.getByText("Nothing is pending.").waitFor();
        const settled = page.getByTestId("settled-action");
        await settled.getByText("applied").waitFor();
        const steps = (await settled.first().textContent()) ?? "";
        expect(steps).toContain('Rename 1 file: "draft" → "done"');
        expect(steps).toMatch(/staged.*applied: reviewed on the page/s);
        expect(existsSync(join(folder.path, "todo-done.md"))).toBe(true);
      });
    },
  );
});
