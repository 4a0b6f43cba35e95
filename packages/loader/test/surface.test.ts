import { describe, expect, it } from "vitest";
import * as loader from "../src/index.js";
import * as testing from "../src/testing/index.js";

// Pins the public surface: a change here must be deliberate (and documented in the README).
describe("@tooldock/loader public surface", () => {
  it("exports exactly the documented runtime values", () => {
    expect(Object.keys(loader).sort()).toMatchInlineSnapshot(`
      [
        "CACHE_DIR_ENV",
        "COMPILER_ENV",
        "DEFAULT_FACTORY_TIMEOUT_MS",
        "DEFAULT_RELOAD_LIMIT",
        "DEFAULT_TOOL_HOST_MEMORY_MB",
        "DEFAULT_WATCH_DEBOUNCE_MS",
        "FACTORY_TIMEOUT_ENV",
        "MAX_TOOLS_PER_MODULE",
        "ON_SESSION_FAILED_WARNING",
        "PENDING_STORE_UNAVAILABLE_MESSAGE",
        "SOURCE_MAPS_ENV",
        "TOOL_MESSAGE_CHANNEL",
        "ToolHost",
        "checkSessionHooks",
        "discoverToolModules",
        "escapeTerminalText",
        "formatDiagnostic",
        "hasToolManifest",
        "loadCustomTools",
        "nameConflictDiagnostic",
        "nameInvalidDiagnostic",
        "onSessionFailedDiagnostic",
        "prestartToolHost",
        "readLoadEnvironment",
        "reportSessionHookFailures",
        "watchCustomTools",
      ]
    `);
  });

  it("@tooldock/loader/testing exports the harness", () => {
    expect(Object.keys(testing).sort()).toMatchInlineSnapshot(`
      [
        "createToolHarness",
      ]
    `);
  });
});
