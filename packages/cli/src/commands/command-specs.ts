// The static part of every command: what `--help`, bad usage and argument parsing need. Kept
// apart from the command modules so that none of them is imported to print help.
import type { CommandSpec } from "../args/command-spec.js";
import { ISOLATION_USAGE, isolationHelp, isolationOptions } from "../isolate/isolation-flags.js";
import { DEFAULT_STORE_SESSION, STORE_HELP, STORE_USAGE, storeOptions } from "../store/store-option.js";
import { DEFAULT_PATHS_HELP, OPENCODE_USAGE, opencodeOption, toolsOption } from "./tool-path-options.js";

/** `tooldock list [paths…] [--json]`: the tools a host would load, and every diagnostic. */
export const listSpec: CommandSpec = {
  name: "list",
  summary: "Load tools and print a table of them and every diagnostic",
  usage: `tooldock list [paths…] [--tools PATH]… ${OPENCODE_USAGE} [--json] ${ISOLATION_USAGE}`,
  options: {
    tools: toolsOption,
    opencode: opencodeOption,
    json: {
      type: "boolean",
      description: "Print one JSON document (docs/contract.md §6) instead of the table",
    },
    ...isolationOptions(false),
  },
  positionals: { min: 0, max: Number.POSITIVE_INFINITY },
  details: [DEFAULT_PATHS_HELP, "Exit code 1 when any module has an error diagnostic.", isolationHelp(false)],
};

/** The report formats of `tooldock validate --format`. */
export const VALIDATE_FORMATS = ["pretty", "json", "junit"] as const;

/** `tooldock validate`: the contract check for CI, with pretty, JSON and JUnit reports. */
export const validateSpec: CommandSpec = {
  name: "validate",
  summary: "Check tool modules against the contract (for CI)",
  usage: `tooldock validate [paths…] [--tools PATH]… ${OPENCODE_USAGE} [--format pretty|json|junit] [--output FILE] [--strict] ${ISOLATION_USAGE}`,
  options: {
    tools: toolsOption,
    opencode: opencodeOption,
    format: {
      type: "string",
      valueName: "FORMAT",
      choices: VALIDATE_FORMATS,
      description: "Report format (default pretty)",
    },
    output: {
      type: "string",
      valueName: "FILE",
      description: "Write the report to FILE; stdout then gets the pretty report",
    },
    strict: {
      type: "boolean",
      description:
        "Add contract lints (descriptions, object schema, provider names, OpenAI strict mode) and fail on any warning",
    },
    ...isolationOptions(true),
  },
  positionals: { min: 0, max: Number.POSITIVE_INFINITY },
  details: [
    DEFAULT_PATHS_HELP,
    "Exit code 1 when any error (with --strict, any warning) is found.",
    "CI: tooldock validate ./tools --strict --format junit --output reports/tooldock.xml",
    isolationHelp(true) +
      " Each module gets its own tool host (up to one per CPU at a time), so a module that hangs (E_TOOL_HOST after " +
      "--isolate-timeout), exits, crashes or runs out of memory is named in the report and cannot hide the others.",
  ],
};

/** `tooldock call <tool> [paths…] --args JSON [--apply | --discard] [--reason R] [--json]`. */
export const callSpec: CommandSpec = {
  name: "call",
  summary: "Run one tool in a fresh session; show its result, preview and pending stack",
  usage: `tooldock call <tool> [paths…] [--tools PATH]… ${OPENCODE_USAGE} [--args JSON] [--apply | --discard] [--reason TEXT] [--json] ${STORE_USAGE} ${ISOLATION_USAGE}`,
  options: {
    tools: toolsOption,
    opencode: opencodeOption,
    args: {
      type: "string",
      valueName: "JSON",
      description: "The tool's arguments as a JSON object (default {})",
    },
    apply: { type: "boolean", description: "Apply every action the call staged, top first" },
    discard: { type: "boolean", description: "Discard every action the call staged, top first" },
    reason: {
      type: "string",
      valueName: "TEXT",
      description: "The reason passed to resolve (default: from the command line)",
    },
    json: { type: "boolean", description: "Print { result, pending, resolved } as JSON" },
    ...storeOptions,
    ...isolationOptions(false),
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY },
  details: [
    DEFAULT_PATHS_HELP,
    "The built-in ast_edit tool is always available. Without --apply or --discard, staged actions are " +
      "only previewed and discarded on exit: nothing changes. Exit code 1 when the result or a resolution is an error.",
    STORE_HELP,
    isolationHelp(false),
    'Example:\n  tooldock call batch_rename_preview ./tools --args \'{"files":["a.md"],"find":"a","replace":"b","regex":false}\' --apply',
  ],
};

/** `tooldock pending list|apply|discard --store URL [--session ID] [paths…]`: a durable store's actions. */
export const pendingSpec: CommandSpec = {
  name: "pending",
  summary: "List, apply or discard the pending actions a durable store keeps",
  usage: `tooldock pending list|apply|discard --store sqlite:PATH|postgresql://… [--session ID] [paths…] [--tools PATH]… ${OPENCODE_USAGE} [--reason TEXT] [--json] ${ISOLATION_USAGE}`,
  options: {
    ...storeOptions,
    tools: toolsOption,
    opencode: opencodeOption,
    reason: {
      type: "string",
      valueName: "TEXT",
      description: "The reason passed to resolve (default: from the command line)",
    },
    json: { type: "boolean", description: "Print the session's records (list) or the resolution as JSON" },
    ...isolationOptions(false),
    isolate: {
      type: "boolean",
      description:
        "apply, discard: load the tools and run the handler in a sandboxed tool host (the default for an action staged in one)",
    },
    "no-isolate": {
      type: "boolean",
      description:
        "apply, discard: load the tools and run the handler in this process, even for an action staged in a tool host",
    },
    "allow-write": {
      type: "string",
      multiple: true,
      valueName: "PATH",
      description:
        "With isolation: a folder or file the handler may write (default: the folder the action was staged in)",
    },
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY },
  details: [
    `list prints the session's pending actions, top first (default session ${DEFAULT_STORE_SESSION}). apply and discard load ` +
      "the tools from the paths (the handlers of durable actions are theirs), then resolve the top action once, as the model's " +
      "resolve does: an action another process resolved first, an interrupted one and a lost one are reported, never applied.",
    DEFAULT_PATHS_HELP,
    "An action staged by a tool in a tool host (call --isolate, mcp --isolate) is applied and discarded in one: its " +
      "handler reads only its tools' folders, the working folder and the folder the action was staged in, and writes only that folder, unless " +
      "--allow-read, --allow-write, --allow-exec or --allow-env grant it more. --no-isolate runs it in this process instead " +
      "(you trust the tool); --isolate runs an action staged in-process in a tool host too. The isolation flags are for " +
      "apply and discard; list loads no tool.",
    "Exit code 1 when the resolution is an error, nothing is pending, or the store cannot be opened.",
    "Example:\n  tooldock pending apply --store sqlite:.tooldock/pending.db ./tools --reason 'reviewed'",
  ],
};

/** The request shapes of `tooldock schema --provider`. */
export const SCHEMA_PROVIDERS = ["json", "openai", "anthropic", "gemini"] as const;

/** `tooldock schema [paths…] [--provider json|openai|anthropic|gemini]`. */
export const schemaSpec: CommandSpec = {
  name: "schema",
  summary: "Print the tool definitions a model API needs",
  usage: `tooldock schema [paths…] [--tools PATH]… ${OPENCODE_USAGE} [--provider json|openai|anthropic|gemini] ${ISOLATION_USAGE}`,
  options: {
    tools: toolsOption,
    opencode: opencodeOption,
    provider: {
      type: "string",
      valueName: "NAME",
      choices: SCHEMA_PROVIDERS,
      description: "The request shape (default json: name, description, JSON Schema parameters)",
    },
    ...isolationOptions(false),
  },
  positionals: { min: 0, max: Number.POSITIVE_INFINITY },
  details: [
    DEFAULT_PATHS_HELP,
    "Prints the `tools` array of the provider's request (Gemini: its `tools` with functionDeclarations), for the tools offered to the model (hidden tools left out). Diagnostics go to stderr; exit code 1 when a module failed to load.",
    isolationHelp(false),
  ],
};

/** `tooldock init <dir>`: scaffolds a publishable tool package with a passing test. */
export const initSpec: CommandSpec = {
  name: "init",
  summary: "Scaffold a publishable tool package (manifest, a tool, a vitest test)",
  usage: "tooldock init <dir> [--name TOOL_NAME] [--from TARBALLS]",
  options: {
    name: {
      type: "string",
      valueName: "TOOL_NAME",
      description: "The tool's name (default: from the folder name)",
    },
    from: {
      type: "string",
      valueName: "TARBALLS",
      description: "A folder of Tooldock tarballs (pnpm release:pack): depend on them with file: specs",
    },
  },
  positionals: { min: 1, max: 1 },
  details: [
    'The folder must be new or empty. The package lists its tools/ folder in the "tooldock" field of package.json (every module there is loaded), has @tooldock/sdk as a peer dependency, and tests the tool with @tooldock/loader/testing. The tool may not be named resolve or after a built-in.',
  ],
};

/** `tooldock demo`: the main job on the bundled examples, end to end (what `pnpm start` runs in the repo). */
export const demoSpec: CommandSpec = {
  name: "demo",
  summary: "Run the end-to-end tour on the bundled examples",
  usage: "tooldock demo",
  options: {},
  positionals: { min: 0, max: 0 },
  details: [
    "Loads the example tools shipped inside @tooldock/cli (a copy of the repo's packages/examples/tools), previews and applies a batch rename (showing the pending stack and the steering to resolve), previews and discards an ast_edit, then stacks two actions and resolves them last-in first-out. Everything happens in a temporary folder (compile cache included) that is removed at the end.",
  ],
};

/** The values of `tooldock mcp --resolve`: when `resolve` is in the tool list. */
export const MCP_RESOLVE_LISTINGS = ["always", "pending"] as const;

/** The values of `tooldock mcp --pending-policy`: the session's `pendingPolicy`. */
export const MCP_PENDING_POLICIES = ["block", "allow"] as const;

/** The values of `tooldock mcp --builtin`: built-in tools it can serve. */
export const MCP_BUILTINS = ["ast_edit"] as const;

/**
 * `tooldock mcp [paths…]`: serves the tools over the Model Context Protocol on stdio until
 * the client goes away (stdin closes), SIGINT or SIGTERM, or with `--http` over Streamable
 * HTTP. Exit code 0 after a clean stop.
 */
export const mcpSpec: CommandSpec = {
  name: "mcp",
  summary: "Serve the tools to an MCP client over stdio or HTTP, pending actions included",
  usage:
    `tooldock mcp [paths…] [--tools PATH]… ${OPENCODE_USAGE} [--cwd DIR] [--watch] [--resolve always|pending] [--pending-policy block|allow] ` +
    `[--builtin ast_edit] [${STORE_USAGE}] [--http [--port N] [--host H] [--token-file FILE | --no-token] [--allow-host H]… [--allow-origin O]… [--idle-timeout MS]] ` +
    ISOLATION_USAGE,
  details: [
    DEFAULT_PATHS_HELP,
    "Stdout carries the protocol only; load diagnostics, tool logs and anything a tool prints go to " +
      "stderr. A module that fails to load is reported and skipped.",
    "A tool that stages a pending action returns its preview; the client then calls `resolve` to apply or " +
      "discard it, and other tools are refused until it does. Pending actions are discarded when the client disconnects.",
    "`resolve` is listed from the start (--resolve always, the default), so that clients that read the tool list " +
      "once and ignore notifications/tools/list_changed can call it (every other tool would stay refused); with " +
      "nothing pending it changes nothing and answers with an error. --resolve pending lists it only while an " +
      "action is pending, for clients that list again on notifications/tools/list_changed.",
    "--pending-policy allow lets other tools run while an action is pending (the default, block, refuses them " +
      "until `resolve` decides it). --cwd DIR serves from DIR: the session's and the tools' working folder, and " +
      "the folder the paths and the default tool folders are found from (a client that starts the server in " +
      "another folder needs it).",
    "With --watch, the tool paths are watched: after a file changes the tools are loaded again into the " +
      "same session, with --http into every session (pending actions are kept; a module that no longer loads " +
      "keeps its previous tools) and the client is sent notifications/tools/list_changed.",
    'Register it with a client (its MCP configuration):\n  { "mcpServers": { "tooldock": { "command": "npx", "args": ["-y", "@tooldock/cli", ' +
      '"mcp", "./tools"] } } }',
    "--builtin ast_edit serves the built-in structural rewrite tool besides the loaded ones: its previews are " +
      "pending actions like any other, applied or discarded through `resolve`. With --builtin and no path, only the " +
      "built-in is served when there is no default tool folder.",
    "--http serves over MCP's Streamable HTTP transport at http://HOST:PORT/mcp (default 127.0.0.1:7717; --port 0 " +
      "picks a free port; the URL is printed on stderr) instead of stdio: each client session gets its own session " +
      "of the tools, with its own pending actions. Requests whose Host is not this server's or whose Origin is not " +
      "allowed are refused (403), and every request needs Authorization: Bearer <token> (401): the token is " +
      "$TOOLDOCK_MCP_TOKEN, the first line of --token-file FILE (readable by you alone), or else one generated for " +
      "this run and printed on stderr; --no-token serves without one, to every user of this machine (a warning " +
      "says so). A token on the command line (--token) is refused: every user can read it there. A session without a connection for --idle-timeout ms (default 1800000, 30 min) is closed and " +
      "its pending actions discarded. It stops on SIGINT, SIGTERM or when its stdin pipe closes. A client connects " +
      'to the URL with the token:\n  { "mcpServers": { "tooldock": { "type": "http", "url": "http://127.0.0.1:7717/mcp", ' +
      '"headers": { "Authorization": "Bearer <token>" } } } }',
    `${isolationHelp(false)} With --watch, each reload starts a new tool host and stops the previous one, unless an action is pending or a module failed to reload (it keeps its previous tools); those wait for a later reload or the end.`,
    "With --store (stdio only), the session is --session ID (default tooldock-cli) of that durable store: what " +
      "was pending there is served at the start (`resolve` applies it through the loaded tools' handlers), and when " +
      "the client disconnects the durable actions stay in the store for the next server or `tooldock pending`. " +
      "When it holds actions staged in a tool host (--isolate), the tools load in one without a flag (--no-isolate: in this process). " +
      "--http refuses --store: each client gets a session of its own, which a client reconnecting to a restarted " +
      "server cannot name.",
  ],
  options: {
    tools: toolsOption,
    opencode: opencodeOption,
    ...storeOptions,
    watch: { type: "boolean", description: "Reload the tools when their files change and tell the client" },
    resolve: {
      type: "string",
      valueName: "WHEN",
      choices: MCP_RESOLVE_LISTINGS,
      description: "List `resolve` always, or only while an action is pending (default always)",
    },
    "pending-policy": {
      type: "string",
      valueName: "POLICY",
      choices: MCP_PENDING_POLICIES,
      description: "Refuse other tools while an action is pending, or allow them (default block)",
    },
    cwd: {
      type: "string",
      valueName: "DIR",
      description:
        "Working folder of the session and the tools, where paths are found (default: the current one)",
    },
    builtin: {
      type: "string",
      multiple: true,
      valueName: "NAME",
      choices: MCP_BUILTINS,
      description: "Serve a built-in tool too (ast_edit: structural rewrites, previewed then resolved)",
    },
    http: { type: "boolean", description: "Serve over Streamable HTTP instead of stdio" },
    port: {
      type: "string",
      valueName: "N",
      description: "With --http: the port (default 7717; 0: a free one)",
    },
    host: {
      type: "string",
      valueName: "H",
      description: "With --http: the address to listen on (default 127.0.0.1, this machine only)",
    },
    token: {
      type: "string",
      valueName: "T",
      description:
        "Refused: every user can read a command line; use $TOOLDOCK_MCP_TOKEN or --token-file instead",
    },
    "token-file": {
      type: "string",
      valueName: "FILE",
      description:
        "With --http: read the bearer token from FILE's first line (mode 600; default: $TOOLDOCK_MCP_TOKEN, else one generated and printed)",
    },
    "no-token": {
      type: "boolean",
      description:
        "With --http: serve without a token, to every user of this machine (only where you are its only user)",
    },
    "allow-host": {
      type: "string",
      multiple: true,
      valueName: "H",
      description: "With --http: a hostname accepted in the Host header besides localhost and the --host",
    },
    "allow-origin": {
      type: "string",
      multiple: true,
      valueName: "O",
      description: "With --http: an Origin (scheme://host:port) whose web pages may call the server",
    },
    "idle-timeout": {
      type: "string",
      valueName: "MS",
      description: "With --http: close a session after this long without a connection (default 1800000)",
    },
    ...isolationOptions(false),
  },
  positionals: { min: 0, max: Number.POSITIVE_INFINITY },
};
