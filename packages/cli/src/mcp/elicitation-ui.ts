import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { UIContext } from "@tooldock/sdk";
import type { TooldockMcpServer } from "./create-mcp-server.js";

/** How long a question waits for the user's answer; past it, it counts as dismissed. */
export const ELICITATION_TIMEOUT_MS = 600_000;

/**
 * `pi.ui` answered by an MCP client through elicitation (`elicitation/create`, a form with
 * one field): `select` an enum, `confirm` a boolean, `input` a string; `notify` is a log
 * notification. A question the user declines or cancels, one that fails or times out
 * ({@link ELICITATION_TIMEOUT_MS}) answers as dismissed (`undefined`, `false`), as `pi.ui`
 * does without a UI.
 */
export function elicitationUI(mcp: TooldockMcpServer): UIContext {
  const server: Server = mcp.server;
  const ask = async (message: string, field: Record<string, unknown>): Promise<unknown> => {
    try {
      const answer = await server.elicitInput(
        {
          mode: "form",
          message,
          requestedSchema: { type: "object", properties: { answer: field }, required: ["answer"] } as never,
        },
        { timeout: ELICITATION_TIMEOUT_MS },
      );
      return answer.action === "accept" ? answer.content?.answer : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    async select(title, options) {
      const answer = await ask(title, { type: "string", title, enum: [...options] });
      return typeof answer === "string" && options.includes(answer) ? answer : undefined;
    },
    async confirm(title, message) {
      return (
        (await ask(message === "" ? title : `${title}\n\n${message}`, { type: "boolean", title })) === true
      );
    },
    async input(title, placeholder) {
      const answer = await ask(title, {
        type: "string",
        title,
        ...(placeholder === undefined ? {} : { description: placeholder }),
      });
      return typeof answer === "string" ? answer : undefined;
    },
    notify(message, level = "info") {
      mcp.log(level === "warning" ? "warning" : level === "error" ? "error" : "info", String(message), "ui");
    },
  };
}

/** Whether the connected client said it answers elicitation requests (form mode). */
export function clientElicits(mcp: TooldockMcpServer): boolean {
  return mcp.server.getClientCapabilities()?.elicitation !== undefined;
}
