import type { Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { TooldockError } from "@tooldock/sdk";

/** Answers a request with a JSON-RPC error (`id: null`) and an HTTP status. */
export function replyError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** Listens and resolves to the port; a port in use or an address not on this machine is an `E_MCP_LISTEN`. */
export function listen(server: Server, port: number, hostname: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) =>
      reject(
        new TooldockError(
          "E_MCP_LISTEN",
          `cannot listen on ${hostname}:${port}: ${error.message}; choose another --port (0 picks a free one) or --host`,
          { cause: error },
        ),
      );
    server.once("error", fail);
    server.listen(port, hostname, () => {
      server.off("error", fail);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Settles once `signal` aborts or `stdin` ends or closes (its data is read and dropped meanwhile). */
export function stopped(signal: AbortSignal | undefined, stdin: Readable | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      signal?.removeEventListener("abort", stop);
      stdin?.off("end", stop);
      stdin?.off("close", stop);
      stdin?.pause();
      resolve();
    };
    if (signal?.aborted) return stop();
    signal?.addEventListener("abort", stop, { once: true });
    stdin?.once("end", stop);
    stdin?.once("close", stop);
    stdin?.resume();
  });
}
