// Attack: a client (or a broken proxy) writes a line that is not JSON, or JSON that is not a
// JSON-RPC message, to `tooldock mcp`'s stdin. The SDK's stdio transport dropped the line and
// only reported it on stderr: no reply, so a client waiting for one hung. JSON-RPC 2.0 asks for
// `-32700 Parse error` and `-32600 Invalid Request`, with `id: null`.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { serveMcp } from "../../src/mcp/serve-mcp.js";
import { memoryPipes } from "../mcp-in-memory.js";

const fixtures = fileURLToPath(new URL("../fixtures/mcp/", import.meta.url));

/** serveMcp on in-memory pipes; `next()` resolves to the next line the server writes. */
function start() {
  const { toServer, fromServer, stderr, stderrText } = memoryPipes();
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let buffered = "";
  fromServer.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const take = waiting.shift();
      if (take) take(line);
      else lines.push(line);
    }
  });
  const served = serveMcp({ paths: ["noisy"], cwd: fixtures, stdin: toServer, stdout: fromServer, stderr });
  const next = () =>
    new Promise<unknown>((resolve) => {
      const line = lines.shift();
      if (line !== undefined) resolve(JSON.parse(line));
      else waiting.push((text) => resolve(JSON.parse(text)));
    });
  const send = (text: string) => toServer.write(`${text}\n`);
  return { send, next, served, end: () => toServer.end(), stderr: stderrText };
}

describe("mcp: lines that are not JSON-RPC", () => {
  it("answers -32700 to a line that is not JSON and -32600 to JSON that is not JSON-RPC, then goes on", async () => {
    const server = start();
    server.send("{not json");
    expect(await server.next()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    server.send('{"hello":"world"}');
    const invalid = await server.next();
    expect(invalid).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect((invalid as { error: { message: string } }).error.message).toContain("JSON-RPC 2.0");
    server.send('{"jsonrpc":"2.0","id":7,"method":"ping"}');
    expect(await server.next()).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
    server.end();
    await server.served;
    expect(server.stderr()).toContain("protocol error");
  });
});
