import { cliVersion } from "../version.js";
import type { ResolveListing } from "./resolve-listing.js";

/** Name and version the server reports in `initialize`; the version is the CLI package's. */
export const SERVER_INFO: { name: string; version: string } = { name: "tooldock", version: cliVersion() };

/** What the server tells the client about the pending-action workflow in `initialize` (`--resolve pending`). */
export const SERVER_INSTRUCTIONS = [
  "Some of these tools stage their changes as pending actions: they return a preview and change nothing yet.",
  "While an action is pending, a `resolve` tool appears and other tools are refused:",
  'call `resolve` with action "apply" or "discard" and a reason to decide it.',
].join(" ");

/** The instructions when `resolve` is listed from the start (`--resolve always`). */
const ALWAYS_LISTED_INSTRUCTIONS = [
  "Some of these tools stage their changes as pending actions: they return a preview and change nothing yet.",
  "While an action is pending, other tools are refused:",
  'call `resolve` with action "apply" or "discard" and a reason to decide it.',
  "`resolve` is always listed, but with nothing pending it does nothing and answers with an error.",
].join(" ");

/** The `initialize` instructions for a {@link ResolveListing}. */
export function serverInstructions(listing: ResolveListing): string {
  return listing === "always" ? ALWAYS_LISTED_INSTRUCTIONS : SERVER_INSTRUCTIONS;
}
