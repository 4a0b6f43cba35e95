import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { expect, onTestFinished } from "vitest";
import { cliBin } from "./cli-process.js";

/** Where Debian, Ubuntu and others put Chromium; `$TOOLDOCK_CHROMIUM` comes first. */
const CANDIDATES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/** The Chromium executable to drive with playwright-core (no browser download), or `undefined`. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const executable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (env.TOOLDOCK_CHROMIUM) return executable(env.TOOLDOCK_CHROMIUM) ? env.TOOLDOCK_CHROMIUM : undefined;
  const folders = (env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const name of CANDIDATES) {
    for (const folder of folders) if (executable(join(folder, name))) return join(folder, name);
  }
  return undefined;
}

/**
 * The browser for the browser tests. Without one they are skipped with this reason, except in
 * CI (`CI=true`), where a missing browser fails the run: `.ci/run` installs it.
 */
export function browserForTests(): { executablePath?: string; skipReason?: string } {
  const executablePath = findChromium();
  if (executablePath !== undefined) return { executablePath };
  const reason =
    "no Chromium found (looked for $TOOLDOCK_CHROMIUM, then chromium, chromium-browser, google-chrome on PATH); " +
    "install it (apt-get install -y chromium) to run the browser tests";
  if (process.env.CI === "true" || process.env.CI === "1")
    throw new Error(`The inspect browser tests need Chromium in CI: ${reason}.`);
  return { skipReason: reason };
}

/** A `tooldock inspect` process of the built CLI. */
export interface InspectProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 10 s). */
  stop(): Promise<number | null>;
}

/**
 * Starts `tooldock inspect <args> --no-open --port 0` in `cwd` (with `env` over the test's
 * environment) and waits for the URL it prints.
 */
export function startInspectProcess(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<InspectProcess> {
  const child = spawn(process.execPath, [cliBin, "inspect", ...args, "--no-open", "--port", "0"], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    }
    return child.exitCode;
  };
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const url = /^Open (http:\/\/\S+)$/m.exec(text)?.[1];
      if (url !== undefined) {
        child.stdout?.off("data", onData);
        child.stdout?.on("data", (more: Buffer) => {
          text += more.toString("utf8");
        });
        resolve({ url, child, output: () => text, stop });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    child.once("exit", (code) =>
      reject(new Error(`tooldock inspect exited (${code}) before serving:\n${text}`)),
    );
    child.once("error", reject);
  });
}

/** POSTs `body` to `path` of `server`'s API, with the token its printed URL carries (as the page does). */
export function postToInspect(server: InspectProcess, path: string, body: unknown): Promise<Response> {
  const url = new URL(server.url);
  const token = new URLSearchParams(url.hash.slice(1)).get("token") ?? "";
  return fetch(new URL(path, url), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * Resolves once the server's output holds `text`, a line it prints on stderr (stdout and stderr
 * arrive in either order, so a wait on the URL's stdout does not see it).
 */
export function outputIncludes(server: InspectProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!server.output().includes(text)) return;
      server.child.stderr?.off("data", check);
      resolve();
    };
    server.child.stderr?.on("data", check);
    check();
  });
}

/** Each wait on a page: generous for a loaded 2-core machine, far under a test's own timeout. */
export const PAGE_WAIT_MS = 15_000;

/** How {@link openInspectPage} gets its page. */
export interface InspectPageOptions {
  /** A browser the test file shares: the page opens in a new context of it. */
  browser?: Browser;
  /** Without `browser`: the Chromium to launch for this test alone (closed when it ends). */
  executablePath?: string;
  /** The page's size; playwright's default (1280 x 720) without it. */
  viewport?: { width: number; height: number };
}

/**
 * `tooldock inspect tools` in `folder` and a Chromium page whose every wait is
 * {@link PAGE_WAIT_MS}, not yet on the server's URL. When the test ends the page's context (or
 * its own browser) is closed and the process stopped, which must exit with code 0.
 */
export async function openInspectPage(
  folder: string,
  options: InspectPageOptions = {},
): Promise<{ page: Page; server: InspectProcess }> {
  const server = await startInspectProcess(folder, ["tools"]);
  onTestFinished(async () => {
    expect(await server.stop()).toBe(0);
  });
  let browser = options.browser;
  if (browser === undefined) {
    const own = await chromium.launch({ executablePath: options.executablePath });
    onTestFinished(() => own.close());
    browser = own;
  }
  const context = await browser.newContext(options.viewport ? { viewport: options.viewport } : {});
  onTestFinished(() => context.close());
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_WAIT_MS);
  return { page, server };
}
