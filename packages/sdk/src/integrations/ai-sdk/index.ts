export { weftTelemetry, type WeftTelemetryOptions } from './weft-telemetry.js';
export { TRACED_AI_SDK_FUNCTIONS, wrapAISDK } from './wrap-ai-sdk.js';
