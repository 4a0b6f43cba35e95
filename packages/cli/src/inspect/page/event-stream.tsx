// The inspect API's event stream (`/api/events`, `text/event-stream`) read with `fetch`:
// `EventSource` cannot send the `Authorization` header the API asks for, and the token must
// not travel in a cookie or a URL. Reconnects as `EventSource` does, after the server's
// `retry:` (1 s) and at once after the first failure.
import { authorization } from "./page-token.js";

export interface EventStreamHandlers {
  open(): void;
  /** The connection failed or ended: it is being reconnected. */
  error(): void;
  event(name: string, data: string): void;
}

/** Connects to `path` and keeps connecting until the returned function is called. */
export function openEventStream(path: string, handlers: EventStreamHandlers): () => void {
  let stopped = false;
  let controller: AbortController | undefined;
  let retryMs = 1000;
  const dispatch = (block: string) => {
    let name = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") name = value;
      else if (field === "data") data.push(value);
      else if (field === "retry" && /^\d+$/.test(value)) retryMs = Number(value);
    }
    if (data.length > 0) handlers.event(name, data.join("\n"));
  };
  const connect = async () => {
    while (!stopped) {
      controller = new AbortController();
      try {
        const response = await fetch(path, {
          headers: { accept: "text/event-stream", ...authorization() },
          cache: "no-store",
          signal: controller.signal,
        });
        if (!response.ok || response.body === null) throw new Error(`status ${response.status}`);
        handlers.open();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n?/g, "\n");
          for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
            dispatch(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch {
        // Refused, cut or aborted: reconnect below unless stopped.
      }
      if (stopped) return;
      handlers.error();
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  };
  void connect();
  return () => {
    stopped = true;
    controller?.abort();
  };
}
