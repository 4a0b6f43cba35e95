// The loader README's "Reload and watch" examples, compiled by the type check so they cannot
// rot. The README shows the regions below as they are (`scripts/readme-snippets.test.ts`
// compares them; `pnpm docs:snippets` copies them).

import { Session } from "@tooldock/runtime";
import type { Logger } from "@tooldock/sdk";
import { ToolHost } from "../host-api/tool-host.js";
import { loadCustomTools } from "../load/load-custom-tools.js";
import { watchCustomTools } from "./watch-custom-tools.js";

declare const log: Logger;

export async function reloadCommand(): Promise<void> {
  // #region reload
  const host = new ToolHost({ cwd: process.cwd() });
  const session = new Session({ cwd: process.cwd() });
  await loadCustomTools({ paths: ["./tools"], host, session });
  // … the conversation goes on; the user edits ./tools and types /reload:
  const { changes, diagnostics } = await loadCustomTools({ paths: ["./tools"], host, session });
  log.info(`added ${changes.added.join(", ")}; removed ${changes.removed.join(", ")}`);
  const problems = `${diagnostics.length} ${diagnostics.length === 1 ? "diagnostic" : "diagnostics"}`;
  log.info(`replaced ${changes.replaced.join(", ")}; ${problems}`);
  // session.pending still holds every action the old versions staged
  // #endregion reload
}

export async function watchTools(session: Session): Promise<void> {
  // #region watch
  const watcher = await watchCustomTools({
    paths: ["./tools"],
    session,
    debounceMs: 100,
    onReload: ({ changes, diagnostics, changedPaths }) => {
      const files = `${changedPaths.length} ${changedPaths.length === 1 ? "file" : "files"}`;
      log.info(`${files} changed; added ${changes.added.join(", ")}`);
      for (const d of diagnostics) log.warn(`${d.code} ${d.message}`); // the old tool stays
    },
    onError: (error) => log.warn(error.message), // a path that cannot be watched
  });
  // … on shutdown:
  await watcher.close();
  // #endregion watch
}

export async function firstToolsEarly(offer: (session: Session) => void): Promise<void> {
  // #region progress
  const session = new Session({ cwd: process.cwd() });
  await loadCustomTools({
    paths: ["./tools"],
    session, // each module's tools are registered in it as soon as they pass
    onProgress: ({ tools }) => {
      if (tools.length > 0) offer(session); // the model may start before the batch ends
    },
  });
  // #endregion progress
}
