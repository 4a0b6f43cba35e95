// inspect-help-says-a-cookie-carries-the-token: `tooldock inspect --help` said that after the
// first visit "a cookie carries" the token. None does (a browser sends 127.0.0.1's cookies to
// every port, another user's server included): the page keeps it in the tab, and a new tab
// needs the printed URL again, which the help now says, as the README does.
import { describe, expect, it } from "vitest";
import { formatCommandHelp } from "../../src/args/format-help.js";
import { inspectSpec } from "../../src/commands/inspect-spec.js";

describe("inspect-help-says-a-cookie-carries-the-token", () => {
  it("the help says where the token is kept, and that a new tab needs the URL again", () => {
    const help = formatCommandHelp(inspectSpec).join(" ").replace(/\s+/g, " ");
    expect(help).not.toMatch(/a cookie carries it/);
    expect(help).toContain("never in a cookie");
    expect(help).toContain("a new tab needs the printed URL again");
  });
});
