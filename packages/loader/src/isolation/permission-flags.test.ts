import { describe, expect, it } from "vitest";
import { permissionFlags } from "./permission-flags.js";

const permissions = { read: ["/a", "/a", "/b"], write: ["/w"], exec: false, net: false, memoryMb: 64 };

describe("permissionFlags", () => {
  it.each([
    ["v20.11.0", "--experimental-permission"],
    ["v22.12.0", "--experimental-permission"],
    ["v22.13.0", "--permission"],
    ["v23.5.0", "--permission"],
    ["v24.0.0", "--permission"],
  ])("spells the model's flag as Node %s does", (version, flag) => {
    expect(permissionFlags(version, permissions)[0]).toBe(flag);
  });

  it("allows each path once, and exec, workers and the network only when asked", () => {
    expect(permissionFlags("v26.1.0", permissions)).toEqual([
      "--permission",
      "--allow-fs-read=/a",
      "--allow-fs-read=/b",
      "--allow-fs-write=/w",
      "--max-old-space-size=64",
    ]);
    expect(permissionFlags("v26.1.0", { ...permissions, exec: true, net: true })).toContain("--allow-net");
    expect(permissionFlags("v24.1.0", { ...permissions, net: true })).not.toContain("--allow-net");
    expect(permissionFlags("v20.19.0", { ...permissions, exec: true })).toEqual(
      expect.arrayContaining([
        "--allow-child-process",
        "--allow-worker",
        "--disable-warning=ExperimentalWarning",
      ]),
    );
  });

  it("refuses a Node without a usable permission model", () => {
    expect(() => permissionFlags("v20.10.0", permissions)).toThrow(
      "Node v20.10.0 has no usable permission model (Node 20.11 or later has)",
    );
    expect(() => permissionFlags("v18.20.0", permissions)).toThrow(/Node 20.11 or later/);
  });
});
