// Attack: a client opens the inspect server's event stream and stops reading it (a stalled
// tab, a paused `curl`, a hostile local client with the token). Every event was written to it
// anyway, so the server kept them all in memory, growing without bound while tools ran. Fix:
// a page that leaves more than `maxBufferedBytes` unread is closed; a real page reconnects and
// gets the state and the log again.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { EventHub } from "../../src/inspect/event-hub.js";
import type { InspectState } from "../../src/inspect/inspect-protocol.js";

const STATE: InspectState = {
  version: "0.0.0-test",
  cwd: "/tmp",
  tools: [],
  diagnostics: [],
  pending: [],
  toolChoice: "auto",
  running: [],
};

describe("regression: an event stream nobody reads", () => {
  it("is closed once too much is left unread; a reading page keeps its stream", async () => {
    const hub = new EventHub({ maxBufferedBytes: 256 * 1024 });
    onTestFinished(() => hub.close());
    const server = createServer((_request, response: ServerResponse) => hub.attach(response, STATE));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const { port } = server.address() as AddressInfo;
    const open = (reading: boolean) =>
      new Promise<void>((resolve) => {
        const socket = connect(port, "127.0.0.1", () => {
          socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
        });
        onTestFinished(() => void socket.destroy());
        socket.once("data", () => {
          if (!reading) socket.pause();
          resolve();
        });
        if (reading) socket.on("data", () => {});
      });
    await open(false);
    await open(true);
    expect(hub.clients).toBe(2);
    const big = "x".repeat(200 * 1024);
    // Up to 64 MiB in all: far past what the kernel's socket buffers hold for the stalled one.
    for (let index = 0; index < 320 && hub.clients === 2; index++) {
      hub.send("call-update", { callId: `c${index}`, partial: { content: [{ type: "text", text: big }] } });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(hub.clients).toBe(1);
  });
});
