// Attack: a web page the user visits (https://evil.example) posts to the local MCP server
// from the browser. The browser sends the page's Origin. Fix: a request with an Origin that
// is not the server's own (http://127.0.0.1:<port>, http://localhost:<port>, …) or an
// --allow-origin is refused with 403; requests without Origin (non-browser clients) pass.
import { describe, expect, it } from "vitest";
import { errorMessage, send, startHttpInProcess } from "../mcp-http-in-process.js";

describe("regression: a cross-site page against tooldock mcp --http", () => {
  it("refuses a foreign Origin (403), and a page on another local port too", async () => {
    const server = await startHttpInProcess();
    const foreign = await send(server.url, { headers: { Origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(errorMessage(foreign.body)).toContain('Origin "https://evil.example" is not allowed');
    const otherPort = await send(server.url, { headers: { Origin: `http://localhost:${server.port + 1}` } });
    expect(otherPort.status).toBe(403);
    expect(server.stderr()).not.toContain("opened");
  });

  it("serves its own origin, one given with --allow-origin, and no Origin at all", async () => {
    const server = await startHttpInProcess({ allowOrigins: ["http://localhost:6274"] });
    for (const origin of [`http://127.0.0.1:${server.port}`, "http://localhost:6274", undefined]) {
      const headers: Record<string, string> = origin === undefined ? {} : { Origin: origin };
      expect((await send(server.url, { headers })).status, String(origin)).toBe(200);
    }
  });
});
