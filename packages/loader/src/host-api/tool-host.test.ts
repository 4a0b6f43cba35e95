import * as TypeBox from "@sinclair/typebox";
import { PendingActionStore, Session } from "@tooldock/runtime";
import * as Sdk from "@tooldock/sdk";
import { type CustomToolPendingAction, textResult, type UIContext } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PENDING_STORE_UNAVAILABLE_MESSAGE, ToolHost } from "./tool-host.js";

const action = (label: string): CustomToolPendingAction => ({
  label,
  apply: async () => textResult(`applied ${label}`),
});

describe("ToolHost.createAPI().pushPendingAction", () => {
  it("throws the exact message when no session is active", () => {
    const pi = new ToolHost().createAPI();
    expect(() => pi.pushPendingAction(action("x"))).toThrow(new Error(PENDING_STORE_UNAVAILABLE_MESSAGE));
    expect(PENDING_STORE_UNAVAILABLE_MESSAGE).toBe(
      "Pending action store unavailable for custom tools in this runtime.",
    );
  });

  it("pushes onto whichever session is active at call time", () => {
    const host = new ToolHost();
    const pi = host.createAPI(); // created before any session exists, as at load time
    const first = new Session();
    const second = new Session();
    host.setActiveSession(first);
    pi.pushPendingAction(action("to first"));
    host.setActiveSession(second);
    pi.pushPendingAction(action("to second"));
    expect(first.pending.list().map((record) => record.label)).toEqual(["to first"]);
    expect(second.pending.list().map((record) => record.label)).toEqual(["to second"]);
    host.setActiveSession(undefined);
    expect(() => pi.pushPendingAction(action("nowhere"))).toThrow(PENDING_STORE_UNAVAILABLE_MESSAGE);
    expect(first.pending.size + second.pending.size).toBe(2);
  });

  it("throws when the active session has no store", () => {
    const host = new ToolHost();
    host.setActiveSession({ pending: undefined } as unknown as Session);
    expect(() => host.createAPI().pushPendingAction(action("x"))).toThrow(PENDING_STORE_UNAVAILABLE_MESSAGE);
  });

  it("works with a bare store holder", () => {
    const host = new ToolHost();
    const pending = new PendingActionStore();
    host.setActiveSession({ pending });
    host.createAPI().pushPendingAction({ ...action("staged"), sourceToolName: "rename" });
    expect(pending.peek()).toMatchObject({ label: "staged", sourceToolName: "rename" });
  });
});

describe("ToolHost.createAPI() ui and hasUI", () => {
  it("reads the UI at call time: no-op before one is attached, the host's after", async () => {
    const host = new ToolHost();
    const pi = host.createAPI();
    expect(pi.hasUI).toBe(false);
    expect(await pi.ui.confirm("Delete?", "really")).toBe(false);
    expect(await pi.ui.select("Pick", ["a"])).toBeUndefined();
    expect(await pi.ui.input("Name")).toBeUndefined();
    const notes: string[] = [];
    const ui: UIContext = {
      select: async (_title, options) => options[0],
      confirm: async () => true,
      input: async () => "typed",
      notify: (message) => notes.push(message),
    };
    host.setUIContext(ui);
    expect(pi.hasUI).toBe(true);
    expect(await pi.ui.confirm("Delete?", "really")).toBe(true);
    pi.ui.notify("hello");
    expect(notes).toEqual(["hello"]);
    host.setUIContext(undefined);
    expect(pi.hasUI).toBe(false);
  });
});

describe("ToolHost.createAPI() modules and context", () => {
  it("hands out the host's single copies and its cwd and logger", () => {
    const messages: string[] = [];
    const logger = {
      debug: () => {},
      info: (message: string) => messages.push(message),
      warn: () => {},
      error: () => {},
    };
    const pi = new ToolHost({ cwd: "/tmp", logger }).createAPI();
    expect(pi.typebox.Type).toBe(TypeBox.Type);
    expect(pi.zod).toBe(z);
    expect(pi.pi.TooldockError).toBe(Sdk.TooldockError);
    expect(pi.cwd).toBe("/tmp");
    pi.logger.info("loaded");
    expect(messages).toEqual(["loaded"]);
  });
});
