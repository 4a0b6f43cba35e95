// The loader README's "The rest of pi's API" example, compiled by the type check so it cannot
// rot. The README shows the region below as it is (`scripts/readme-snippets.test.ts` compares
// them; `pnpm docs:snippets` copies them).
import { containStrayFaults, Session } from "@tooldock/runtime";
import type { Logger } from "@tooldock/sdk";
import { describe, expectTypeOf, it } from "vitest";
import { loadCustomTools, TOOL_MESSAGE_CHANNEL, ToolHost, type ToolMessageEvent } from "../index.js";

export async function piApi(log: Logger, transcript: { type: string }[]): Promise<Session> {
  // #region pi-api
  // Keep the process alive when code a tool left running throws after its call returned.
  containStrayFaults((fault) =>
    log.error(`${fault.kind} in ${fault.call?.toolName ?? "the host"}`, fault.error),
  );
  const host = new ToolHost({ logger: log }); // pi.logger (and its time) write here
  const session = new Session({
    conversation: { entries: () => transcript, model: () => ({ provider: "anthropic", id: "claude" }) },
  });
  host.events.on("my-tool:done", (data) => log.info("a tool emitted", data)); // pi.events
  host.events.on(TOOL_MESSAGE_CHANNEL, (data) => {
    const { message, toolName } = data as ToolMessageEvent; // pi.sendMessage
    log.info(`${toolName ?? "a tool"} says`, message.content);
  });
  await loadCustomTools({ paths: ["./tools"], host, session });
  await session.start(); // onSession gets { reason: "start", entries, sessionFile, previousSessionFile }
  // #endregion pi-api
  return session;
}

describe("the loader README's pi API example", () => {
  it("compiles", () => {
    expectTypeOf(piApi).returns.resolves.toEqualTypeOf<Session>();
  });
});
