// Attack (another user of this machine, reading /proc): `tooldock inspect` opened its URL,
// token included, with `xdg-open <url>`, and the browser got it as an argument too; every
// user can read a process's arguments (`ps`, /proc/<pid>/cmdline), and one such token was
// used to rewrite files through a live server. Fix: the opener is given a file that only this
// user can read (0600 in a 0700 folder of its own), which sends the browser on to the URL.
import { chmod, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { openInBrowser } from "../../src/inspect/open-in-browser.js";

describe.skipIf(process.platform === "darwin" || process.platform === "win32")(
  "regression: the inspect token on a command line",
  () => {
    it("gives xdg-open a private file that leads to the URL, never the URL itself", async () => {
      const bin = await mkdtemp(join(tmpdir(), "fake-opener-"));
      const record = join(bin, "argv.json");
      await writeFile(
        join(bin, "xdg-open"),
        `#!${process.execPath}\nrequire("node:fs").writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`,
      );
      await chmod(join(bin, "xdg-open"), 0o755);
      const path = process.env.PATH;
      process.env.PATH = `${bin}${delimiter}${path ?? ""}`;
      onTestFinished(() => {
        process.env.PATH = path;
      });
      const url = "http://127.0.0.1:4100/#token=secret-token-for-the-test";
      const problems: string[] = [];
      const remove = await openInBrowser(url, (problem) => problems.push(problem));
      onTestFinished(remove);
      const argv = await waitForFile(record);
      expect(problems).toEqual([]);
      expect(JSON.stringify(argv)).not.toContain("secret-token-for-the-test");
      expect(argv).toHaveLength(1);
      const file = fileURLToPath(argv[0] as string);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(join(file, ".."))).mode & 0o777).toBe(0o700);
      expect(await readFile(file, "utf8")).toContain(`url=${url}`);
      await remove();
      await expect(stat(file)).rejects.toThrow();
    });
  },
);

/** The JSON the fake opener writes, once it has written it whole (it runs detached). */
async function waitForFile(path: string): Promise<string[]> {
  const read = async () => {
    try {
      return JSON.parse(await readFile(path, "utf8")) as string[];
    } catch {
      return undefined;
    }
  };
  await expect.poll(read, { timeout: 60_000 }).toBeDefined();
  return (await read()) as string[];
}
