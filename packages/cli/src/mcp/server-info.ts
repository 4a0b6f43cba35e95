import { cliVersion } from "../version.js";

/** Name and version the server reports in `initialize`; the version is the CLI package's. */
export const SERVER_INFO: { name: string; version: string } = { name: "tooldock", version: cliVersion() };

/** What the server tells the client about the pending-action workflow in `initialize`. */
export const SERVER_INSTRUCTIONS = [
  "Some of these tools stage their changes as pending actions: they return a preview and change nothing yet.",
  "While an action is pending, a `resolve` tool appears and other tools are refused:",
  'call `resolve` with action "apply" or "discard" and a reason to decide it.',
].join(" ");
