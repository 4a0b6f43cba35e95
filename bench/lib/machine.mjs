// What the figures were measured on.
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";

export function describeMachine() {
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
    date: new Date().toISOString(),
  };
}
