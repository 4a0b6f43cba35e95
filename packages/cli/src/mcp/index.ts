// The `tooldock mcp` server. Everything exported here is public API of this module.
export { type CreateMcpServerOptions, createMcpServer, type TooldockMcpServer } from "./create-mcp-server.js";
export {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MCP_HTTP_HOST,
  DEFAULT_MCP_HTTP_PORT,
  type ServeMcpHttpOptions,
  serveMcpHttp,
} from "./http/serve-mcp-http.js";
export type { ResolveListing } from "./resolve-listing.js";
export { type ServeMcpOptions, type ServeMcpResult, serveMcp } from "./serve-mcp.js";
export { toMcpTool } from "./tool-definition.js";
