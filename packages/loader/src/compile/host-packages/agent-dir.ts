import { homedir } from "node:os";
import { join } from "node:path";
import { expandPath } from "../../discover/expand-path.js";

/**
 * pi's `getAgentDir()`: where pi keeps its settings, and its extensions theirs
 * (`join(getAgentDir(), "extensions", "x.json")`): `PI_CODING_AGENT_DIR` (a leading `~` is the
 * home directory; any other value as it is, as pi reads it), else `~/.pi/agent`. An extension
 * run by Tooldock reads the settings its user gave it in pi.
 */
export function getAgentDir(): string {
  const configured = process.env.PI_CODING_AGENT_DIR;
  if (configured === undefined || configured === "") return join(homedir(), ".pi", "agent");
  return configured === "~" || configured.startsWith("~/") ? expandPath(configured, homedir()) : configured;
}
