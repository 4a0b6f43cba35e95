import { describe, expect, it } from "vitest";
import * as examples from "../src/index.js";

describe("@tooldock/examples public surface", () => {
  it("exports exactly the documented names", () => {
    expect(Object.keys(examples).sort()).toEqual([
      "createChatServer",
      "examplesPackageDirectory",
      "examplesToolsDirectory",
      "runExampleHost",
      "scriptedModel",
    ]);
  });
});
