// Compares session.execute between two builds of the runtime in one process, so the
// machine's drift hits both alike:
//   node bench/runtime/compare-builds.mjs <checkout A> <checkout B> [tracked]
// With `tracked`, both builds track tool calls (trackToolCalls(), as after loadCustomTools),
// so Node's promise hooks are on for both, as in every host that loaded tools.
// Each checkout must be built (packages/runtime/dist) and installed (node_modules). Blocks
// of 20,000 calls on a TypeBox tool alternate A, B (order flipped every round); the first two
// rounds are warm-up; prints the median µs per call of each and B/A. Use a worktree of the
// base commit for A: `git worktree add ../old <commit>` and install it.
const [a, b, mode] = process.argv.slice(2);
const { Type } = await import(`${a}/node_modules/.pnpm/node_modules/@sinclair/typebox/build/esm/index.mjs`);
const make = async (root) => {
  const { Session, trackToolCalls } = await import(`${root}/packages/runtime/dist/index.js`);
  if (mode === "tracked") trackToolCalls();
  const tool = {
    name: "t",
    label: "T",
    description: "d",
    parameters: Type.Object({ a: Type.Number() }),
    execute: async (_id, p) => ({ content: [{ type: "text", text: String(p.a) }] }),
  };
  const s = new Session();
  s.register(tool, "x");
  await s.start();
  return s;
};
const sessions = { A: await make(a), B: await make(b) };
const times = { A: [], B: [] };
const N = 20000;
for (let round = 0; round < 16; round++) {
  for (const k of round % 2 ? ["A", "B"] : ["B", "A"]) {
    const s = sessions[k];
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) await s.execute({ toolCallId: "c", name: "t", params: { a: i } });
    if (round >= 2) times[k].push(Number(process.hrtime.bigint() - t0) / N / 1000);
  }
}
const med = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
console.log(
  `A ${med(times.A).toFixed(2)} µs  B ${med(times.B).toFixed(2)} µs  B/A ${(med(times.B) / med(times.A)).toFixed(2)}`,
);
