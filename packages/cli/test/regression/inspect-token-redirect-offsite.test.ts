// Attack: an open redirect through the first visit. `GET /<path>?token=…` answered with the
// cookie and a redirect to the same path without the token; a path such as `/.//evil.example`
// is `//evil.example` once parsed, and a `Location: //evil.example` sends the browser to
// another site (which then knows the server answers there). Fix then: the redirect kept one
// leading slash. Now the token travels in the URL's fragment, which no request carries, and
// the server redirects nothing at all: a `?token=` in a query is neither taken nor answered
// with a `Location`.
import { describe, expect, it } from "vitest";
import { inspectWorkspace, send, startTestServer } from "../inspect-server-fixture.js";

describe("regression: the token redirect never leaves the inspect server", () => {
  it.each(["/.//evil.example/x", "/..//evil.example", "//evil.example/", "/./%2e//evil.example", "/"])(
    "GET %s?token=… is answered without a redirect, and the token in it opens no API",
    async (path) => {
      const server = await startTestServer(await inspectWorkspace());
      const answer = await send(server.port, { path: `${path}?token=${server.token}&tab=1` });
      expect(answer.status).not.toBe(303);
      expect(answer.headers.location).toBeUndefined();
      expect(answer.headers["set-cookie"]).toBeUndefined();
      const api = await send(server.port, { path: `/api/state?token=${server.token}` });
      expect(api.status).toBe(401);
    },
  );
});
