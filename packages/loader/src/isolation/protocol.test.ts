import { describe, expect, it } from "vitest";
import { parseChildMessage } from "./protocol.js";

describe("parseChildMessage", () => {
  it("accepts each message and copies only its known fields", () => {
    const parsed = parseChildMessage(
      JSON.stringify({ t: "result", id: 3, result: { content: [] }, extra: "dropped" }),
    );
    expect(parsed).toEqual({ ok: true, value: { t: "result", id: 3, result: { content: [] } } });
    expect(
      parseChildMessage(JSON.stringify({ t: "push", via: "pi", action: 1, label: "x", reject: false })),
    ).toEqual({ ok: true, value: { t: "push", via: "pi", action: 1, label: "x", reject: false } });
  });

  it.each([
    ["not JSON", "{", "a line that is not JSON"],
    ["an array", "[]", "a message that is not an object"],
    ["an unknown type", '{"t":"exec","command":"rm"}', "a message of an unknown type"],
    ["a result without content", '{"t":"result","id":1,"result":{}}', 'a malformed "result" message'],
    ["a negative id", '{"t":"pong","id":-1}', 'a malformed "pong" message'],
    [
      "a push with a numeric label",
      '{"t":"push","via":"ctx","action":1,"label":5,"reject":false}',
      'a malformed "push" message',
    ],
    ["a log at an unknown level", '{"t":"log","level":"fatal","message":"x"}', 'a malformed "log" message'],
    [
      "a ui call of an unknown method",
      '{"t":"ui","id":1,"method":"eval","args":[]}',
      'a malformed "ui" message',
    ],
    [
      "a tool without a path",
      '{"t":"loaded","tools":[{"name":"a"}],"diagnostics":[],"modules":[]}',
      'a malformed "loaded" message',
    ],
  ])("refuses %s", (_what, line, reason) => {
    expect(parseChildMessage(line)).toEqual({ ok: false, reason });
  });
});
