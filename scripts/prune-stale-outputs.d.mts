export function pruneStaleOutputs(root: string): string[];
