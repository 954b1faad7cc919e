import { z } from 'zod';

/**
 * A checkpoint line that is not a row result: a run of the evaluation
 * started or ended. A resume reads them to find runs whose process died
 * (a `start` without an `end`) and ends those calls on the server.
 *
 * ```
 * {"run":"start","callId":"…","traceId":"…","parentId":null,"startedAt":1764…}
 * {"rowIndex":0,"trial":0,…,"callId":"…","runId":"…"}     ← row results carry their call and run
 * {"run":"end","callId":"…"}
 * ```
 */
export const runMarker = z.discriminatedUnion('run', [
  z.object({
    run: z.literal('start'),
    callId: z.string().min(1),
    traceId: z.string().min(1),
    parentId: z.string().min(1).nullable(),
    startedAt: z.number(),
  }),
  z.object({ run: z.literal('end'), callId: z.string().min(1) }),
]);
export type RunMarker = z.infer<typeof runMarker>;
export type RunStart = Extract<RunMarker, { run: 'start' }>;

/** Runs of a checkpoint that started and never ended, in file order. */
export function unfinishedRuns(markers: readonly RunMarker[]): RunStart[] {
  const ended = new Set(markers.filter((m) => m.run === 'end').map((m) => m.callId));
  return markers.filter((m): m is RunStart => m.run === 'start' && !ended.has(m.callId));
}
