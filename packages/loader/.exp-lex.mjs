import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const { generateTools } = await import("../../bench/load/generate.mjs");
const root = mkdtempSync(join(tmpdir(), "lexexp-"));
const gen = await generateTools(root, 100);
const oxc = await import("oxc-transform");
const files = [];
for (const entry of gen.entries) { files.push(entry); files.push(join(entry, "..", "helpers.ts")); }
const codes = await Promise.all(files.map(async (f) => (await oxc.transform(f, readFileSync(f, "utf8"), { sourcemap: true })).code));
const mode = process.argv[2];
const lexer = mode === "js" ? await import("es-module-lexer/js") : await import("es-module-lexer");
const t0 = performance.now();
await lexer.init;
const ti = performance.now();
let n = 0; const per = [];
for (const c of codes) { const a = performance.now(); n += lexer.parse(c)[0].length; per.push(performance.now() - a); }
console.log("init", (ti - t0).toFixed(2), "first5", per.slice(0,5).map(x=>x.toFixed(2)).join(" "), "median", per.sort((a,b)=>a-b)[100].toFixed(3), "len", codes[0].length, codes[1].length);
const t1 = performance.now();
const COMMONJS = /\brequire\b|\bmodule\s*(?:\.\s*exports\b|\[)|\bexports\s*(?:\.\s*[\w$]|\[)/;
let m = 0; for (const c of codes) if (COMMONJS.test(c)) m++;
const t2 = performance.now();
console.log(mode, "lex", (t1 - t0).toFixed(2), "ms; cjs regex", (t2 - t1).toFixed(2), n, m);
