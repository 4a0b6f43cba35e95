import type { Logger } from "@tooldock/sdk";

/** The logger tools get when the host passes none: it drops every message. */
export const silentLogger: Logger = Object.freeze({
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
});
