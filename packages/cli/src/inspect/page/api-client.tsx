// The page's side of the inspect API (`inspect-protocol.ts`): JSON over fetch, the token as
// `Authorization: Bearer` (see page-token.ts).
import type { CallRequest, CallResponse, ResolveRequest, ValidateResponse } from "../inspect-protocol.js";
import { authorization } from "./page-token.js";

/** Thrown when the server refuses a request; `message` is its explanation. */
export class ApiError extends Error {
  override readonly name = "ApiError";
}

async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...authorization() },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const text = await response.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(`The server answered ${response.status}: ${text.trim()}`);
  }
  if (!response.ok) {
    const error = (value as { error?: unknown }).error;
    throw new ApiError(typeof error === "string" ? error : `The server answered ${response.status}.`);
  }
  return value as T;
}

/** Runs a tool; resolves with its result when the call ends (cancelled calls too). */
export const callTool = (request: CallRequest) => post<CallResponse>("/api/call", request);

/** Aborts a running call. */
export const cancelCall = (callId: string) => post<{ cancelled: boolean }>("/api/cancel", { callId });

/** Applies or discards the top pending action. */
export const resolveTop = (request: ResolveRequest) => post<CallResponse>("/api/resolve", request);

/** Checks arguments with the session's validator. */
export const validateArguments = (tool: string, params: unknown) =>
  post<ValidateResponse>("/api/validate", { tool, params });

/** A fresh id for a call, unique enough within one page. */
export function newCallId(): string {
  return `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
