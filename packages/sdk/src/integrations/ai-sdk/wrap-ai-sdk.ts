import type { TelemetrySettings } from 'ai';
import { InvalidOptionsError } from '../../errors/index.js';
import { type WeftTelemetryOptions, weftTelemetry } from './weft-telemetry.js';

/** The AI SDK functions `wrapAISDK` traces. */
export const TRACED_AI_SDK_FUNCTIONS = [
  'generateText',
  'streamText',
  'generateObject',
  'streamObject',
  'embed',
  'embedMany',
] as const;

type TracedName = (typeof TRACED_AI_SDK_FUNCTIONS)[number];
// biome-ignore lint/suspicious/noExplicitAny: each function keeps its own signature through the mapped type.
type AnyFunction = (...args: any[]) => any;

/**
 * The AI SDK's functions with telemetry recorded in Weft — one line for the
 * whole app:
 *
 * ```ts
 * import * as ai from 'ai';
 * const { generateText, streamText, generateObject, streamObject, embed, embedMany } = wrapAISDK(ai);
 * ```
 *
 * Each wrapped function is the AI SDK's own, called with
 * `experimental_telemetry` defaulting to {@link weftTelemetry}; settings a
 * call passes (`functionId`, `metadata`, `recordInputs`, …) are kept, and a
 * call that passes `isEnabled: false` is not recorded. Arguments, return
 * values and errors are the AI SDK's, unchanged.
 */
export function wrapAISDK<M extends Partial<Record<TracedName, AnyFunction>>>(
  ai: M,
  options: WeftTelemetryOptions = {},
): Pick<M, TracedName & keyof M> {
  if (
    typeof ai !== 'object' ||
    ai === null ||
    typeof (ai as { generateText?: unknown }).generateText !== 'function'
  ) {
    throw new InvalidOptionsError(
      'ai',
      "wrapAISDK expects the AI SDK module (`import * as ai from 'ai'`), got a value without `generateText`.",
    );
  }
  // Made now, not at the first call: it registers the OTel context manager,
  // which Weft ops started from here on put their call into.
  weftTelemetry(options);
  const wrapped: Partial<Record<TracedName, AnyFunction>> = {};
  for (const name of TRACED_AI_SDK_FUNCTIONS) {
    const fn = ai[name];
    if (typeof fn !== 'function') continue;
    wrapped[name] = (
      settings: { experimental_telemetry?: TelemetrySettings } | undefined,
      ...rest: unknown[]
    ) =>
      fn(
        { ...settings, experimental_telemetry: withWeft(settings?.experimental_telemetry, options) },
        ...rest,
      );
  }
  return wrapped as Pick<M, TracedName & keyof M>;
}

function withWeft(given: TelemetrySettings | undefined, options: WeftTelemetryOptions): TelemetrySettings {
  if (given?.isEnabled === false) return given;
  const weft = weftTelemetry(options);
  // The call's own settings win; a call's own tracer is used as given (add WeftSpanProcessor to its provider).
  return { ...weft, ...given, isEnabled: true, tracer: given?.tracer ?? weft.tracer };
}
