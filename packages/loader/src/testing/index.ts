// `@tooldock/loader/testing`: helpers for tool authors' own test suites. Public API.

/** Loads tool modules as a host would into a fresh session, for tests. */
export {
  createToolHarness,
  type ToolHarness,
  type ToolHarnessOptions,
  type ToolHarnessResult,
} from "./create-tool-harness.js";
