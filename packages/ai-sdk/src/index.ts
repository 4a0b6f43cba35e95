// Everything exported here is public API. Keep this list curated; never `export *`.
// The surface test (index.test.ts) fails when this list changes by accident.
export type { AISDKToolOutput } from "./ai-sdk-tool-output.js";
export {
  type AISDKTool,
  type AISDKToolSet,
  type AISDKTools,
  type CreateAISDKToolsOptions,
  createAISDKTools,
} from "./create-ai-sdk-tools.js";
export type { AISDKStepSteering } from "./prepare-step.js";
export { type AISDKModelOutput, toAISDKModelOutput } from "./to-model-output.js";
