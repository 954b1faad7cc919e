import * as weft from '@weft/sdk';

/** What the workload traced: call ids in order, and the refs its calls must resolve on the server. */
export interface RefsWorkload {
  ids: string[];
  /** The published object's ref (from `publish`, which must not wait for the server). */
  guide: string;
}

/**
 * Calls that reference each kind of record that travels beside them: a
 * published object (in the inputs, by identity), a dataset (its table ref)
 * and a file (a Buffer in the output, one per call). `tag` makes every
 * process's content its own, so nothing is deduplicated away by a digest the
 * server already holds.
 */
export async function runRefsWorkload({ tag, calls }: { tag: string; calls: number }): Promise<RefsWorkload> {
  const guideValue = { rules: ['be brief', 'cite sources'], tag };
  const guide = await weft.publish(guideValue, { name: 'guide' });
  const dataset = new weft.Dataset({
    name: 'cases',
    rows: [{ q: `${tag} 1` }, { q: `${tag} 2` }, { q: `${tag} 3` }],
  });
  const ids: string[] = [];
  const step = weft.op(function refStep(i: number, guideline: object, data: weft.Dataset) {
    ids.push(weft.currentCall()?.id ?? '');
    return {
      i,
      rows: data.length,
      rules: (guideline as { rules: string[] }).rules.length,
      blob: Buffer.from(`blob ${tag} ${i}`),
    };
  });
  for (let i = 0; i < calls; i++) step(i, guideValue, dataset);
  return { ids, guide: guide.uri };
}
