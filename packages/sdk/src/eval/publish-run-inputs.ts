import { debuglog } from 'node:util';
import { tableDigest } from '@weft/protocol';
import type { PlannedRun } from './plan-run.js';

const log = debuglog('weft');

/**
 * Publishes what the run's call refers to, and returns how the run records
 * its dataset: the published version it was read from, a `Dataset`'s object
 * ref once published, else the rows' count and table digest (also when
 * publishing failed: the run goes on). A `Model` is
 * published once here, so every call that holds it records its version ref.
 * Nothing is published without an open client.
 */
export async function publishRunInputs(plan: PlannedRun, evaluation: string): Promise<unknown> {
  const { client, dataset, model } = plan;
  let datasetInput: unknown = plan.publishedDataset ?? {
    rowCount: plan.rows.length,
    digest: tableDigest(plan.digests),
  };
  if (client === undefined || client.closed) return datasetInput;
  if (dataset !== undefined) {
    try {
      datasetInput = (await dataset.publish({ client })).ref.uri;
    } catch (error) {
      log(
        'evaluation %s: publishing dataset %s failed, recording its digest only: %o',
        evaluation,
        dataset.name,
        error,
      );
    }
  }
  if (plan.isModel) {
    await client
      .publish(model)
      .catch((error: unknown) => log('evaluation %s: publishing the model failed: %o', evaluation, error));
  }
  return datasetInput;
}
