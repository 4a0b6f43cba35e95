import { spawn } from "node:child_process";

/** The command that opens a URL in the default browser on this platform. */
function opener(url: string): { command: string; args: string[] } {
  if (process.platform === "darwin") return { command: "open", args: [url] };
  // `start` is a cmd built-in; its first quoted argument is the window title.
  if (process.platform === "win32")
    return { command: "cmd", args: ["/c", "start", '""', url.replace(/&/g, "^&")] };
  return { command: "xdg-open", args: [url] };
}

/**
 * Opens `url` in the default browser, without waiting for it; when that cannot be done (no
 * `xdg-open`, no display), `onProblem` gets why and the caller tells the user to open it.
 */
export function openInBrowser(url: string, onProblem: (problem: string) => void): void {
  const { command, args } = opener(url);
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
}
