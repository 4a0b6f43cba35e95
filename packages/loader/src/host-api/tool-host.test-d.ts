import type { Session } from "@tooldock/runtime";
import { describe, expectTypeOf, it } from "vitest";
import type { LoadSession } from "../options.js";
import type { ToolHost, ToolHostSession } from "./tool-host.js";

describe("session types", () => {
  it("a runtime Session is what ToolHost and loadCustomTools accept", () => {
    expectTypeOf<Session>().toExtend<ToolHostSession>();
    expectTypeOf<Session>().toExtend<LoadSession>();
    expectTypeOf<ToolHost["setActiveSession"]>().parameter(0).toEqualTypeOf<ToolHostSession | undefined>();
  });
});
