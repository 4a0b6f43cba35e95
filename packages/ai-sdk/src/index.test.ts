import { describe, expect, it } from "vitest";
import * as aiSdk from "./index.js";

describe("@tooldock/ai-sdk public surface", () => {
  it("exports exactly these runtime values (types are checked by tsc)", () => {
    expect(Object.keys(aiSdk).sort()).toEqual(["createAISDKTools", "toAISDKModelOutput"]);
  });
});
