// The loader README's "Starting it ahead of need" example, compiled by the type check so it
// cannot rot (`pnpm docs:snippets` copies the region into the README).
import type { Session } from "@tooldock/runtime";
import { describe, expectTypeOf, it } from "vitest";
import { type LoadCustomToolsResult, loadCustomTools, prestartToolHost } from "../index.js";

export async function prestart(cwd: string, session: Session): Promise<LoadCustomToolsResult> {
  // #region prestart
  const options = { paths: ["./third-party-tools"], cwd, isolation: "process" } as const;
  const prestarted = prestartToolHost(options); // at the server's start
  // ... later: this load takes the running tool host instead of starting one
  const loaded = await loadCustomTools({ ...options, session });
  // #endregion prestart
  await prestarted.close(); // a no-op: the load took it
  return loaded;
}

describe("the loader README's prestart", () => {
  it("compiles", () => {
    expectTypeOf(prestart).returns.resolves.toEqualTypeOf<LoadCustomToolsResult>();
  });
});
