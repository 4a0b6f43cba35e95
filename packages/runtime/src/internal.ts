// `@tooldock/runtime/internal`: names only Tooldock's own packages use (the loader's tool host
// words its answers exactly as a Session does). Not public API: it may change in any release.

/** The texts of the error results a Session answers with. */
export { toolCallMessages } from "./session/execute/tool-call-messages.js";
