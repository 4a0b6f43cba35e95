// Found by a bug hunt: `tooldock init "z z"` printed `cd z z` in its "Next:" steps, and
// `tooldock init "it's"` printed `cd it's`: pasted into a shell, the first goes to `z` (or
// fails), the second opens a quote that never closes. `tooldock call --store` printed
// `tooldock pending apply --store sqlite:my store.db` the same way. Fixed: the user's words in
// a printed command are quoted for a POSIX shell (output/shell-words.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { shellWords } from "../../src/output/shell-words.js";
import { pendingCommand } from "../../src/store/store-option.js";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

describe("commands the CLI prints for the user to run", () => {
  it("init quotes a folder with a space or a quote in its cd step", async () => {
    const dir = await tempDir();
    try {
      const folders: Array<[string, string]> = [
        ["z z", "'z z'"],
        ["it's", `"it's"`],
        ["plain", "plain"],
      ];
      for (const [folder, shown] of folders) {
        const run = await runCli(["init", folder, "--name", "greet"], { cwd: dir.path });
        expect(run.code).toBe(0);
        expect(run.stdout).toContain(`\n  cd ${shown}\n`);
      }
    } finally {
      await dir.remove();
    }
  });

  it("quotes each word only as much as a shell needs", () => {
    expect(shellWords("sqlite:/x/p.db", "postgresql://me@db/tools", "")).toBe(
      "sqlite:/x/p.db postgresql://me@db/tools ''",
    );
    expect(shellWords("it's $HOME", "a\nb")).toBe(`'it'\\''s $HOME' 'a\nb'`);
  });

  it("pending apply quotes the store, the session and the paths", () => {
    const store = {
      kind: "sqlite",
      url: "sqlite:my store.db",
      path: "/x/my store.db",
      sessionId: "a b",
    } as const;
    expect(pendingCommand(store, "apply|discard", ["my tools", "tools"])).toBe(
      "tooldock pending apply|discard --store 'sqlite:my store.db' --session 'a b' 'my tools' tools",
    );
  });
});
