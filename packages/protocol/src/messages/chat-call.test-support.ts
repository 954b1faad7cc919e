import type { Call } from '../schemas/index.js';

/** A finished call as the calls API answers it, holding `inputs` and `output`: what the message readers take. */
export function chatCall(inputs: Record<string, unknown>, output: unknown, extra: Partial<Call> = {}): Call {
  return {
    project: 'p',
    id: '0190a5f0-0000-7000-8000-000000000001',
    traceId: '0190a5f0-0000-7000-8000-000000000001',
    parentId: null,
    opName: 'chat',
    displayName: null,
    startedAt: 1,
    endedAt: 2,
    status: 'success',
    inputs,
    output,
    exception: null,
    summary: null,
    attributes: {},
    ...extra,
  };
}
