/** A session lifecycle event delivered to a tool's `onSession`. */
export type CustomToolSessionEvent = { reason: "start" } | { reason: "shutdown" };
