import type { EventBus, EventHandler } from "@tooldock/sdk";
import { jsonCopy } from "../json-copy.js";

/**
 * The tool host's `pi.events`: a local bus whose emits also go to the host, and which
 * tells the host which channels its tools listen on (so the host forwards only those).
 * An event that came from the host is delivered here and not sent back.
 */
export function createChildEvents(
  local: EventBus,
  send: (message: { t: "emit"; channel: string; data: unknown } | { t: "listen"; channel: string }) => void,
): { events: EventBus; deliver(channel: string, data: unknown): void } {
  const listened = new Set<string>();
  const events: EventBus = Object.freeze({
    on(channel: string, handler: EventHandler) {
      const key = String(channel);
      if (!listened.has(key)) {
        listened.add(key);
        send({ t: "listen", channel: key });
      }
      return local.on(key, handler);
    },
    off: (channel: string, handler: EventHandler) => local.off(channel, handler),
    emit(channel: string, data?: unknown) {
      local.emit(channel, data);
      send({ t: "emit", channel: String(channel), data: jsonCopy(data) });
    },
  });
  return { events, deliver: (channel, data) => local.emit(channel, data) };
}
