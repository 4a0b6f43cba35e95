// Attack (another user of this machine, tried in Chromium): `tooldock inspect` kept its token
// in a cookie, and a browser sends the cookies of 127.0.0.1 to every port of 127.0.0.1. One
// visit of the user's browser to a page that another local user serves on another port handed
// them the token (the cookie's name even said which port to use it on). Fix: no cookie; the
// token travels in the URL's fragment (sent to no server) and then as an `Authorization`
// header of the page's own requests, kept in the tab's sessionStorage (this origin's only).
import { cp } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { assertBuilt, examplesDir, tempDir } from "../cli-process.js";
import { browserForTests, openInspectPage } from "../inspect-browser.js";

const browserSetup = browserForTests();

describe.skipIf(browserSetup.skipReason !== undefined)(
  "regression: the inspect token reaches another port of 127.0.0.1 through the browser",
  () => {
    let browser: Browser;
    beforeAll(async () => {
      assertBuilt();
      browser = await chromium.launch({ executablePath: browserSetup.executablePath });
    });
    afterAll(async () => {
      await browser?.close();
    });

    it("sends nothing of the token to another local user's page, and the page still works after a reload", async () => {
      const folder = await tempDir({});
      onTestFinished(folder.remove);
      await cp(join(examplesDir, "tools"), join(folder.path, "tools"), { recursive: true });
      const { page, server } = await openInspectPage(folder.path, { browser });
      const token = /token=([\w-]+)/.exec(server.url)?.[1] ?? "";
      expect(token).toMatch(/^[\w-]{43}$/);

      // The other user's server: it records what the browser sends it.
      const seen: IncomingHttpHeaders[] = [];
      const other = createServer((request, response) => {
        seen.push(request.headers);
        response.end("<!doctype html><title>elsewhere</title><p>elsewhere</p>");
      });
      await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
      onTestFinished(() => new Promise<void>((resolve) => other.close(() => resolve())));
      const otherPort = (other.address() as AddressInfo).port;

      await page.goto(server.url);
      await page.getByRole("heading", { name: "Tools" }).waitFor();
      // The token left the address bar once the page had it.
      expect(page.url()).not.toContain(token);
      await page.reload();
      await page.getByRole("heading", { name: "Tools" }).waitFor();

      await page.goto(`http://127.0.0.1:${otherPort}/`);
      await page.getByText("elsewhere").waitFor({ state: "attached" });
      expect(seen.length).toBeGreaterThan(0);
      expect(JSON.stringify(seen)).not.toContain(token);
      expect(seen.every((headers) => headers.cookie === undefined)).toBe(true);
    });
  },
);
