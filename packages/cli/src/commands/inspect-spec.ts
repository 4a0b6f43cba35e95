// The static part of `tooldock inspect`: what `--help`, bad usage and argument parsing need.
import type { CommandSpec } from "../args/command-spec.js";
import { ISOLATION_USAGE, isolationHelp, isolationOptions } from "../isolate/isolation-flags.js";
import { STORE_USAGE, storeOptions } from "../store/store-option.js";
import { DEFAULT_PATHS_HELP, OPENCODE_USAGE, opencodeOption, toolsOption } from "./tool-path-options.js";

/** `tooldock inspect [paths…]`: a local web page to try the tools and resolve their pending actions. */
export const inspectSpec: CommandSpec = {
  name: "inspect",
  summary: "Serve a local web page to try the tools, read their diffs and resolve pending actions",
  usage: `tooldock inspect [paths…] [--tools PATH]… ${OPENCODE_USAGE} [--port N] [--host H] [--no-open] ${STORE_USAGE} ${ISOLATION_USAGE}`,
  options: {
    tools: toolsOption,
    opencode: opencodeOption,
    port: {
      type: "string",
      valueName: "N",
      description: "Port to listen on, 0 to 65535 (default 0: a free one)",
    },
    host: {
      type: "string",
      valueName: "H",
      description:
        "Address to listen on (default 127.0.0.1; anything else exposes the page beyond this machine)",
    },
    "no-open": { type: "boolean", description: "Do not open the page in a browser; just print its URL" },
    ...storeOptions,
    ...isolationOptions(false),
  },
  positionals: { min: 0, max: Number.POSITIVE_INFINITY },
  details: [
    DEFAULT_PATHS_HELP,
    "The page lists every tool (flags, parameters) and load diagnostic, calls a tool through a form built " +
      "from its schema (streamed updates, cancel), shows the pending stack top first with its diffs and " +
      "applies or discards the top action as `resolve` does, and logs every event live. Editing a tool file " +
      "reloads it into the same session: pending actions survive. The built-in ast_edit is always there.",
    "The URL it prints carries a random token; no request is answered without it (the page keeps it in its tab, " +
      "never in a cookie: a new tab needs the printed URL again). It stops on Ctrl-C or SIGTERM, discarding whatever is still pending.",
    "With --store, the page's session is --session ID (default tooldock-cli) of that durable store: what was " +
      "pending there is shown (and can be resolved) at the start, each action shows its history (staged, " +
      "applied, apply failed, discarded, lost, interrupted: when, why, by which process), and the actions " +
      "no longer pending are listed with theirs. On Ctrl-C the durable actions stay in the store. When it holds " +
      "actions staged in a tool host (--isolate), the tools load in one without a flag (--no-isolate: in this process).",
    `${isolationHelp(false)} Each reload starts a new tool host and stops the previous one, unless an action is pending or a module failed to reload.`,
  ],
};
