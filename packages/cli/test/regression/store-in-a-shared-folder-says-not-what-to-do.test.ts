import { chmod, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";

// Found trying `--store sqlite:/tmp/pending.db` as a second user of the machine would: the
// refusal said only "the store's folder /tmp is writable by group or others (mode 777).",
// not why that matters nor where to put the database instead.
describe("a --store database in a folder others can write", () => {
  let root = "";
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("is refused with why and where to put it instead", async () => {
    root = await mkdtemp(join(tmpdir(), "tooldock-shared-store-"));
    const shared = join(root, "shared");
    await mkdir(shared);
    await chmod(shared, 0o1777);
    const path = join(shared, "pending.db");
    const opened = await openStore({ kind: "sqlite", path, url: `sqlite:${path}`, sessionId: "s" });
    expect(opened).toEqual({
      error:
        `E_PENDING_STORE: the store's folder ${shared} is writable by group or others (mode 777): ` +
        "the database holds what the next resolve applies, so its folder must be yours alone. " +
        "Keep it in a folder only you can write (e.g. --store sqlite:$HOME/.local/state/tooldock/pending.db).",
    });
  });
});
