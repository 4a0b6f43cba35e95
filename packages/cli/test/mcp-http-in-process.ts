import { request } from "node:http";
import { Writable } from "node:stream";
import { onTestFinished } from "vitest";
import { type ServeMcpHttpOptions, serveMcpHttp } from "../src/mcp/http/serve-mcp-http.js";
import { tempDir } from "./cli-process.js";

/** A tool that answers "pong". */
const PING_TOOL = `export default (pi) => ({
  name: "ping",
  label: "Ping",
  description: "Answers pong.",
  parameters: pi.typebox.Type.Object({}),
  execute: async () => ({ content: [{ type: "text", text: "pong" }] }),
});
`;

/** The token the servers of these tests run with, unless a test gives its own. */
export const TEST_TOKEN = "test-token";

/** An MCP initialize request, as a raw client sends it. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/**
 * `serveMcpHttp` in this process on a free port, serving a `ping` tool (and `files`, paths
 * relative to the working folder, e.g. `tools/stage.mjs`) from a temporary folder; stopped and
 * cleaned up when the test ends. Resolves once the URL is printed.
 */
export async function startHttpInProcess(
  options: Partial<ServeMcpHttpOptions> = {},
  files: Record<string, string> = {},
) {
  const work = await tempDir({ "tools/ping.mjs": PING_TOOL, ...files });
  const stop = new AbortController();
  let text = "";
  const stderr = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  });
  let failed: unknown;
  const served = serveMcpHttp({
    paths: ["tools"],
    cwd: work.path,
    stderr,
    signal: stop.signal,
    port: 0,
    token: TEST_TOKEN,
    ...options,
  });
  served.catch((error: unknown) => {
    failed = error;
  });
  onTestFinished(async () => {
    stop.abort();
    await served.catch(() => {});
    await work.remove();
  });
  const deadline = Date.now() + 20_000;
  let match: RegExpExecArray | null = null;
  while (match === null) {
    if (failed !== undefined) throw failed;
    if (Date.now() > deadline) throw new Error(`no URL printed:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    match = / on (http:\/\/\S+\/mcp)\n/.exec(text);
  }
  const url = match[1] ?? "";
  return {
    url,
    port: Number(new URL(url).port),
    stderr: () => text,
    /** Begins the server's shutdown; `served` settles once it has ended. */
    stop: () => stop.abort(),
    served,
  };
}

/**
 * A raw HTTP request (node:http: Host and Origin are exactly what is given); reads the first
 * event of a stream. It carries `Authorization: Bearer <token>` (default {@link TEST_TOKEN};
 * `null`: none) unless `headers` has an `Authorization` of its own.
 */
export function send(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    token?: string | null;
  } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const token = options.token === undefined ? TEST_TOKEN : options.token;
  const ownAuthorization = Object.keys(options.headers ?? {}).some(
    (name) => name.toLowerCase() === "authorization",
  );
  const authorization = token === null || ownAuthorization ? {} : { Authorization: `Bearer ${token}` };
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...authorization,
          ...options.headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
          // An accepted initialize answers on an event stream: the first event is enough.
          if (text.includes("\n\n")) res.destroy();
        });
        const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
        res.on("end", done);
        res.on("close", done);
      },
    );
    req.on("error", reject);
    req.end(options.body ?? JSON.stringify(INITIALIZE));
  });
}

/** The JSON-RPC error message of a refusal's body. */
export const errorMessage = (body: string): string =>
  (JSON.parse(body) as { error: { message: string } }).error.message;
