// Attack: a client starts a POST to the inspect server and never ends its body, writing on and
// on. The server read it all before answering, so it held the request (and a connection) for
// as long as the client liked, drained every byte, and never said 413. Fix: the body is refused
// with 413 (and `Connection: close`) as soon as it passes 1 MiB, and past four times that the
// connection is cut; the server goes on answering others.
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../src/inspect/inspect-server.js";
import { inspectWorkspace, postJson, startTestServer } from "../inspect-server-fixture.js";

describe("regression: a request body that never ends, to tooldock inspect", () => {
  it("answers 413 before the body ends, cuts the connection later, and keeps serving", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let written = 0;
    const outcome = await new Promise<{ status: number; connection: string | undefined; cut: boolean }>(
      (resolve, reject) => {
        let status = 0;
        let connection: string | undefined;
        const request = httpRequest(
          {
            host: "127.0.0.1",
            port: server.port,
            method: "POST",
            path: "/api/validate",
            headers: {
              host: `127.0.0.1:${server.port}`,
              authorization: `Bearer ${server.token}`,
              "content-type": "application/json",
            },
          },
          (response) => {
            status = response.statusCode ?? 0;
            connection = response.headers.connection;
            response.resume();
          },
        );
        // The client writes until the server cuts it off, never ending the body.
        const pump = () => {
          while (written < 64 * MAX_BODY_BYTES) {
            written += chunk.length;
            if (!request.write(chunk)) return void request.once("drain", pump);
          }
          reject(new Error("the server read 64 MiB of a body without cutting it off"));
        };
        request.on("error", () => resolve({ status, connection, cut: true }));
        request.on("close", () => resolve({ status, connection, cut: true }));
        pump();
      },
    );
    expect(outcome.status).toBe(413);
    expect(outcome.connection).toBe("close");
    expect(outcome.cut).toBe(true);
    expect(written).toBeLessThan(16 * MAX_BODY_BYTES);
    const next = await postJson(server, "/api/validate", { tool: "echo", params: { text: "ok" } });
    expect(next.json).toEqual({ issues: [] });
  });
});
