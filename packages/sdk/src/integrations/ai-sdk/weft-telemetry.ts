import type { TelemetrySettings } from 'ai';
import type { WeftClient } from '../../client/index.js';
import { weftTracer } from './weft-tracer.js';

/** Options of {@link weftTelemetry}: the AI SDK's own telemetry settings, plus the Weft client. */
export type WeftTelemetryOptions = Omit<TelemetrySettings, 'isEnabled' | 'tracer'> & {
  /** The Weft client calls are recorded by. @default the default client (the last `weft.init`) */
  client?: WeftClient;
};

/**
 * The AI SDK's `experimental_telemetry` settings that record a call in Weft:
 *
 * ```ts
 * await generateText({ model, prompt, experimental_telemetry: weftTelemetry() });
 * ```
 *
 * Telemetry on, and the AI SDK's spans (the call, each model step, each tool
 * call, embeddings) written to a Weft tracer, so they become nested Weft
 * calls with inputs, output, usage and cost — under the Weft op that called
 * them, and parents of the Weft ops a tool runs.
 */
export function weftTelemetry(options: WeftTelemetryOptions = {}): TelemetrySettings {
  const { client, ...settings } = options;
  return { ...settings, isEnabled: true, tracer: weftTracer(client) };
}
