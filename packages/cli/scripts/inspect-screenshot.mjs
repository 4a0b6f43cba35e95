// Takes the README's screenshot of `tooldock inspect`: the built CLI serving a copy of the
// example tools, an ast_edit preview pending with its diff, driven in the system's Chromium by
// playwright-core (the same setup as test/inspect-browser.e2e.test.ts).
//
//   node packages/cli/scripts/inspect-screenshot.mjs [out.png]    (after pnpm build)
//
// Chromium: $TOOLDOCK_CHROMIUM, else `chromium` on PATH (apt-get install -y chromium).
import { execFileSync, spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const cli = join(packageDir, "dist/bundle/tooldock.js");
const examples = join(packageDir, "../examples/tools");
const out = process.argv[2] ?? join(packageDir, "docs/inspect.png");
const executablePath =
  process.env.TOOLDOCK_CHROMIUM ||
  execFileSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).trim();

const folder = await mkdtemp(join(tmpdir(), "tooldock-inspect-shot-"));
const server = { child: undefined };
try {
  await cp(examples, join(folder, "tools"), { recursive: true });
  await mkdir(join(folder, "src"));
  await writeFile(
    join(folder, "src/greet.ts"),
    'export function greet(name: string) {\n  console.log("hello", name);\n  console.log("bye");\n}\n',
  );
  const url = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "inspect", "tools", "--no-open", "--port", "0"], {
      cwd: folder,
      env: { ...process.env, NO_COLOR: "1", TOOLDOCK_CACHE_DIR: join(folder, ".cache") },
      stdio: ["ignore", "pipe", "inherit"],
    });
    server.child = child;
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const match = /^Open (http:\/\/\S+)$/m.exec(text);
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`tooldock inspect exited (${code}):\n${text}`)));
  });
  const browser = await chromium.launch({ executablePath });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    page.setDefaultTimeout(15_000);
    await page.goto(url);
    await page.getByRole("button", { name: /^ast_edit/ }).click();
    await page.locator('[data-field="/ops/0/pat"] input').fill("console.log($$$ARGS)");
    await page.locator('[data-field="/ops/0/out"] input').fill("logger.info($$$ARGS)");
    await page.locator('[data-field="/path"] input').fill("src");
    await page.getByRole("button", { name: "Call ast_edit" }).click();
    await page.getByTestId("pending-action").locator("figure.diff-file").waitFor();
    await page.getByLabel("Reason (required)").fill("logger.info goes to the log file");
    await page.locator("details", { hasText: "Parameters" }).locator("summary").click(); // fold the schema
    await page.screenshot({ path: out });
    process.stderr.write(`inspect-screenshot: wrote ${out}\n`);
  } finally {
    await browser.close();
  }
} finally {
  server.child?.kill("SIGTERM");
  await rm(folder, { recursive: true, force: true });
}
