import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** The command that opens a URL in the default browser on this platform. */
function opener(url: string): { command: string; args: string[] } {
  if (process.platform === "darwin") return { command: "open", args: [url] };
  // `start` is a cmd built-in; its first quoted argument is the window title.
  if (process.platform === "win32")
    return { command: "cmd", args: ["/c", "start", '""', url.replace(/&/g, "^&")] };
  return { command: "xdg-open", args: [url] };
}

/** A page that sends the browser on to `url` at once (a link too, should it not). */
function redirectPage(url: string): string {
  const attribute = url.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return [
    "<!doctype html>",
    '<meta charset="utf-8">',
    "<title>tooldock inspect</title>",
    `<meta http-equiv="refresh" content="0;url=${attribute}">`,
    `<p><a href="${attribute}">Open tooldock inspect</a></p>`,
    "",
  ].join("\n");
}

/**
 * Opens `url` (which holds a secret) in the default browser, without waiting for it, and
 * without the secret on any command line, where every user of the machine could read it
 * (`/proc/<pid>/cmdline` of the opener and of the browser it starts): the browser is given a
 * file only this user can read (mode 0600 in a 0700 folder of its own), which sends it on to
 * `url`. When that cannot be done (no `xdg-open`, no display), `onProblem` gets why and the
 * caller tells the user to open the URL. Resolves with the function that removes the file.
 */
export async function openInBrowser(
  url: string,
  onProblem: (problem: string) => void,
): Promise<() => Promise<void>> {
  let folder: string;
  try {
    folder = await mkdtemp(join(tmpdir(), "tooldock-inspect-"));
    await writeFile(join(folder, "open.html"), redirectPage(url), { mode: 0o600 });
  } catch (error) {
    onProblem(
      `cannot write the page that opens it: ${error instanceof Error ? error.message : String(error)}`,
    );
    return async () => {};
  }
  const remove = () => rm(folder, { recursive: true, force: true });
  const { command, args } = opener(pathToFileURL(join(folder, "open.html")).href);
  try {
    const child = spawn(command, args, { detached: true, stdio: "ignore" });
    child.once("error", (error) => onProblem(`${command}: ${error.message}`));
    child.once("exit", (code) => {
      if (code !== 0 && code !== null) onProblem(`${command} exited with code ${code}`);
    });
    child.unref();
  } catch (error) {
    onProblem(`${command}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return remove;
}
