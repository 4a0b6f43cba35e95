// Attack: an open redirect through the first visit. `GET /<path>?token=…` answers with the
// cookie and a redirect to the same path without the token; a path such as `/.//evil.example`
// is `//evil.example` once parsed, and a `Location: //evil.example` sends the browser to
// another site (which then knows the server answers there). Fix: the redirect keeps one
// leading slash, so it always stays on the inspect server.
import { describe, expect, it } from "vitest";
import { inspectWorkspace, send, startTestServer } from "../inspect-server-fixture.js";

describe("regression: the token redirect never leaves the inspect server", () => {
  it.each(["/.//evil.example/x", "/..//evil.example", "//evil.example/", "/./%2e//evil.example"])(
    "GET %s?token=… redirects to a path of this server",
    async (path) => {
      const server = await startTestServer(await inspectWorkspace());
      const answer = await send(server.port, { path: `${path}?token=${server.token}&tab=1` });
      expect(answer.status).toBe(303);
      const location = String(answer.headers.location);
      expect(location).toMatch(/^\/(?!\/)/);
      expect(location).not.toContain("token");
      expect(new URL(location, "http://127.0.0.1/").host).toBe("127.0.0.1");
    },
  );

  it("keeps the path and the other query parameters of an ordinary visit", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const answer = await send(server.port, { path: `/?token=${server.token}&tab=1` });
    expect(answer.headers.location).toBe("/?tab=1");
  });
});
