import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** JSON-RPC 2.0's code for a message that is not JSON. */
export const PARSE_ERROR = -32700;
/** JSON-RPC 2.0's code for JSON that is not a valid request. */
export const INVALID_REQUEST = -32600;

/**
 * Makes a stdio transport answer the lines it cannot read, as JSON-RPC 2.0 asks: a line that
 * is not JSON gets `-32700 Parse error`, JSON that is not a JSON-RPC message gets `-32600
 * Invalid Request`, both with `id: null` (the transport drops the line, so its id is not
 * known). The SDK's transport only reports them to `onerror`, so a client waiting for an
 * answer waited forever. Call before the server connects: the server chains its own
 * `onerror` after this one. Other transport errors (a stdin failure) get no reply.
 */
export function replyToBadMessages(transport: Transport): void {
  const previous = transport.onerror;
  transport.onerror = (error) => {
    previous?.(error);
    const reply = errorReplyFor(error);
    if (reply !== undefined) transport.send(reply).catch(() => {});
  };
}

function errorReplyFor(error: unknown): JSONRPCMessage | undefined {
  if (error instanceof SyntaxError)
    return errorReply(PARSE_ERROR, `Parse error: the line is not JSON (${error.message})`);
  if (isSchemaError(error)) {
    return errorReply(
      INVALID_REQUEST,
      'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message (a request needs jsonrpc: "2.0", an id and a method)',
    );
  }
  return undefined;
}

/** The schema check of the SDK's reader (zod) failed: the error carries its `issues`. */
function isSchemaError(error: unknown): boolean {
  return error instanceof Error && Array.isArray((error as { issues?: unknown }).issues);
}

function errorReply(code: number, message: string): JSONRPCMessage {
  // `id: null` is JSON-RPC 2.0's answer when the request's id cannot be read; the SDK's
  // message type has no room for it, hence the cast.
  return { jsonrpc: "2.0", id: null, error: { code, message } } as unknown as JSONRPCMessage;
}
