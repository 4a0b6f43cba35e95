import { cp, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { IsolationOptions } from "@tooldock/loader";
import { onTestFinished } from "vitest";
import { type InspectServer, startInspect } from "../src/inspect/serve-inspect.js";
import { removeAfterCacheWrites } from "./cli-process.js";

const fixtures = fileURLToPath(new URL("./fixtures/inspect/", import.meta.url));

/**
 * A folder with the inspect fixtures (`tools/`) and a fake built page (`page/`); removed after
 * the test. `tools` adds modules to `tools/`, by file name.
 */
export async function inspectWorkspace(
  options: { broken?: boolean; tools?: Record<string, string> } = {},
): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "tooldock-inspect-"));
  onTestFinished(() => removeAfterCacheWrites(root));
  await mkdir(join(root, "tools"));
  await cp(join(fixtures, "inspect-tools.ts"), join(root, "tools/inspect-tools.ts"));
  if (options.broken === true) await cp(join(fixtures, "broken.ts"), join(root, "tools/broken.ts"));
  for (const [name, source] of Object.entries(options.tools ?? {}))
    await writeFile(join(root, "tools", name), source);
  await mkdir(join(root, "page"));
  await writeFile(join(root, "page/index.html"), "<!doctype html><title>inspect</title>");
  await writeFile(join(root, "page/app.js"), "export {};");
  return root;
}

/** `startInspect` on a workspace, closed after the test. */
export async function startTestServer(
  root: string,
  options: { token?: string; debounceMs?: number; isolation?: IsolationOptions } = {},
): Promise<InspectServer> {
  const server = await startInspect({
    paths: ["tools"],
    cwd: root,
    version: "0.0.0-test",
    pageFolder: join(root, "page"),
    cacheDir: join(root, ".cache"),
    token: options.token ?? "test-token",
    debounceMs: options.debounceMs ?? 20,
    ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
  });
  onTestFinished(() => server.close());
  return server;
}

/** One HTTP answer, read whole. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw request (any `Host`, any headers) to the server on 127.0.0.1. */
export function send(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "GET",
        path: options.path ?? "/",
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** A POST with the token as a bearer, JSON body; resolves to the parsed answer. */
export async function postJson(
  server: InspectServer,
  path: string,
  value: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const answer = await send(server.port, {
    method: "POST",
    path,
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify(value),
  });
  return { status: answer.status, json: JSON.parse(answer.body) as Record<string, unknown> };
}

/** One server-sent event. */
export interface StreamedEvent {
  event: string;
  data: unknown;
}

/**
 * Connects to `/api/events` and collects its events; `next(match)` resolves with the first
 * event (already received or coming) that matches. Closed after the test.
 */
export function openEvents(server: InspectServer) {
  const events: StreamedEvent[] = [];
  const waiters: Array<{
    match: (event: StreamedEvent) => boolean;
    resolve: (event: StreamedEvent) => void;
  }> = [];
  let buffer = "";
  const request = httpRequest({
    host: "127.0.0.1",
    port: server.port,
    path: "/api/events",
    headers: { host: `127.0.0.1:${server.port}`, authorization: `Bearer ${server.token}` },
  });
  const opened = new Promise<void>((resolve, reject) => {
    request.on("error", reject);
    request.on("response", (response) => {
      resolve();
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
          const name = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (name === undefined || data === undefined) continue;
          const event = { event: name, data: JSON.parse(data) as unknown };
          events.push(event);
          for (const waiter of [...waiters]) {
            if (waiter.match(event)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(event);
            }
          }
        }
      });
    });
  });
  request.end();
  onTestFinished(() => {
    request.destroy();
  });
  return {
    opened,
    events,
    next(match: (event: StreamedEvent) => boolean): Promise<StreamedEvent> {
      const seen = events.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}
