import { describe, expect, it } from "vitest";
import * as cli from "./index.js";

describe("@tooldock/cli public surface", () => {
  it("exports exactly the documented names", () => {
    expect(Object.keys(cli).sort()).toEqual(["cliVersion", "processIo", "run"]);
  });
});
