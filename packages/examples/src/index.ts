// Everything exported here is public API: where the example tools live, and the example host.
import { fileURLToPath } from "node:url";

/** The folder of `@tooldock/examples`; its package.json lists the tool modules to load. */
export const examplesPackageDirectory: string = fileURLToPath(new URL("..", import.meta.url));

/** The folder of the example tool modules (`tools/*.ts`). */
export const examplesToolsDirectory: string = fileURLToPath(new URL("../tools", import.meta.url));

export { type ChatServerOptions, type Complete, createChatServer } from "./chat-server.js";
export { type ExampleHostOptions, runExampleHost, scriptedModel } from "./host.js";
