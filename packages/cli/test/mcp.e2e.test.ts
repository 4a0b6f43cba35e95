// End to end: the BUILT `tooldock mcp` (the bundled executable, `bin` of package.json) over real
// stdio, driven by the MCP SDK's own client. Build first: `pnpm build`.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { assertBuilt, cliBin as binPath } from "./cli-process.js";
import { textOf } from "./mcp-in-memory.js";

const examplesTools = fileURLToPath(new URL("../../examples/tools/", import.meta.url));
const brokenTools = fileURLToPath(new URL("./fixtures/mcp/broken/", import.meta.url));
const noisyTools = fileURLToPath(new URL("./fixtures/mcp/noisy/", import.meta.url));
/** A module that keeps the event loop busy with a timer it never clears. */
const lingeringTools = fileURLToPath(new URL("./fixtures/mcp/lingering/", import.meta.url));
const clientProcess = fileURLToPath(new URL("./fixtures/mcp/client-process.mjs", import.meta.url));

const renameArgs = { files: ["draft-a.txt", "draft-b.txt"], find: "draft", replace: "final", regex: false };

let workDir: string;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(() => {
  assertBuilt();
});

beforeEach(async () => {
  workDir = await mkdtemp(join(tmpdir(), "tooldock-mcp-"));
  await writeFile(join(workDir, "draft-a.txt"), "a");
  await writeFile(join(workDir, "draft-b.txt"), "b");
  await writeFile(join(workDir, "keep.txt"), "k");
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(workDir, { recursive: true, force: true });
});

const listFiles = async () => (await readdir(workDir)).sort();
interface Connected {
  client: Client;
  stderr: () => string;
  /** Resolves on the next `notifications/tools/list_changed`. */
  nextListChanged: () => Promise<void>;
}

/** Connects the SDK's client to a server over `transport` and records list_changed notifications. */
async function connectClient(transport: Transport): Promise<Omit<Connected, "stderr">> {
  const client = new Client({ name: "e2e", version: "1.0.0" });
  const waiters: Array<() => void> = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    for (const wake of waiters.splice(0)) wake();
  });
  await client.connect(transport);
  return {
    client,
    nextListChanged: () => new Promise<void>((resolve) => waiters.push(resolve)),
  };
}

/** This process's environment, as the string map the SDK's transport takes. */
function inheritedEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** `tooldock mcp <paths>` in the work directory, through the SDK's StdioClientTransport. */
async function startServer(paths: string[]): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, "mcp", ...paths],
    cwd: workDir,
    // The SDK passes only a few variables by default; the test run's TMPDIR and XDG folders
    // must reach the server, or its compile cache lands in the user's home.
    env: inheritedEnv(),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const connected = await connectClient(transport);
  cleanups.push(() => connected.client.close());
  return { ...connected, stderr: () => stderr };
}

describe("tooldock mcp (built, over stdio)", () => {
  it("previews a rename, steers to resolve, refuses other tools, and applies (--resolve pending: resolve comes and goes)", async () => {
    const { client, nextListChanged } = await startServer(["--resolve", "pending", examplesTools]);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain("batch_rename_preview");
    expect(names).not.toContain("resolve");
    const rename = tools.find((tool) => tool.name === "batch_rename_preview");
    expect(rename?.annotations?.readOnlyHint).toBe(true); // it only stages; resolve applies
    expect(rename?.inputSchema).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["files"]),
    });

    const listChanged = nextListChanged();
    const preview = await client.callTool({ name: "batch_rename_preview", arguments: renameArgs });
    expect(preview.isError).toBeUndefined();
    expect(textOf(preview)).toContain("draft-a.txt → final-a.txt");
    expect(textOf(preview)).toMatch(/nothing has changed yet/i);
    expect(textOf(preview)).toContain('Rename 2 files: "draft" → "final"');
    await listChanged;
    expect(await listFiles()).toEqual(["draft-a.txt", "draft-b.txt", "keep.txt"]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("resolve");

    const refused = await client.callTool({ name: "note_list", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('Rename 2 files: "draft" → "final"');
    expect(textOf(refused)).toContain("resolve");

    const hidden = nextListChanged();
    const applied = await client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "as planned" },
    });
    expect(applied.isError).toBeUndefined();
    expect(textOf(applied)).toContain("Renamed 2 files");
    expect(await listFiles()).toEqual(["final-a.txt", "final-b.txt", "keep.txt"]);
    await hidden;
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("resolve");
  });

  it("discards: the files stay as they were", async () => {
    const { client } = await startServer([examplesTools]);
    await client.callTool({ name: "batch_rename_preview", arguments: renameArgs });
    const discarded = await client.callTool({
      name: "resolve",
      arguments: { action: "discard", reason: "wrong prefix" },
    });
    expect(discarded.isError).toBeUndefined();
    expect(textOf(discarded)).toContain("No file was renamed");
    expect(await listFiles()).toEqual(["draft-a.txt", "draft-b.txt", "keep.txt"]);
  });

  it("keeps serving when a module fails to load, with diagnostics and stray prints on stderr", async () => {
    const { client, stderr } = await startServer([brokenTools, noisyTools, examplesTools]);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["batch_rename_preview", "noisy"]));
    expect(names).not.toContain("never_loaded");
    const result = await client.callTool({ name: "noisy", arguments: {} });
    expect(textOf(result)).toBe("quiet result");
    await client.ping();
    expect(stderr()).toMatch(/error E_COMPILE .*does-not-compile\.ts/);
    expect(stderr()).toContain("noisy: factory says hello on stdout");
    expect(stderr()).toContain("noisy: logger line");
    expect(stderr()).toContain("noisy: execute says hello on stdout");
    expect(stderr()).toContain("noisy: raw stdout write");
  });

  it.each([
    ["stdin closes", (child: ChildProcess) => child.stdin?.end()],
    ["it gets SIGTERM", (child: ChildProcess) => child.kill("SIGTERM")],
  ])("exits with 0 when %s, discarding what is pending, despite a busy tool", async (_when, stop) => {
    const child = spawn(process.execPath, [binPath, "mcp", examplesTools, lingeringTools], {
      cwd: workDir,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    });
    // The server transport speaks the same newline-delimited JSON; reading the child's
    // stdout and writing its stdin makes it a client transport without a second spawn.
    const { client } = await connectClient(new StdioServerTransport(child.stdout, child.stdin));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("ticks");
    await client.callTool({ name: "batch_rename_preview", arguments: renameArgs });
    stop(child);
    expect(await exited).toBe(0);
    expect(stderr).toContain('discarding 1 pending action: Rename 2 files: "draft" → "final"');
    expect(await listFiles()).toEqual(["draft-a.txt", "draft-b.txt", "keep.txt"]);
  });

  it("leaves no server process behind when the client is killed", async () => {
    const client = spawn(process.execPath, [clientProcess, binPath, workDir, examplesTools, lingeringTools], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    cleanups.push(async () => {
      if (client.exitCode === null) client.kill("SIGKILL");
    });
    const { pid, tools } = await firstJsonLine(client);
    cleanups.push(async () => {
      if (isAlive(pid)) process.kill(pid, "SIGKILL");
    });
    expect(tools).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(true);
    client.kill("SIGKILL");
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 15_000, interval: 50 });
  });
});

async function firstJsonLine(child: ChildProcess): Promise<{ pid: number; tools: number }> {
  if (!child.stdout) throw new Error("the client process has no stdout");
  for await (const line of createInterface({ input: child.stdout })) return JSON.parse(line);
  throw new Error("the client process exited before printing the server pid");
}

/**
 * Signal 0 checks that a process exists without touching it. An orphan that has exited but
 * not yet been reaped by init (a zombie, state `Z` on Linux) runs nothing and counts as gone.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}
