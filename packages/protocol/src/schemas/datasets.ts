import { z } from 'zod';
import { callId, objectName, projectName } from './names.js';
import { objectCreateResponse } from './objects.js';

/**
 * Publishes a new version of dataset `name` made of these calls (for "add to
 * dataset" in the UI): one row per call, in the order given, each
 * `{ ...call.inputs, expected: call.output, sourceCall: <call ref> }` — the
 * rows `Dataset.fromCalls` makes by default. With `append`, the rows follow
 * those of the dataset's latest version.
 */
export const datasetFromCalls = z.strictObject({
  project: projectName,
  name: objectName,
  callIds: z.array(callId).min(1).max(1_000),
  append: z.boolean().default(false),
});
export type DatasetFromCalls = z.input<typeof datasetFromCalls>;

export const datasetFromCallsResponse = objectCreateResponse.extend({
  rowCount: z.number().int().nonnegative(),
});
export type DatasetFromCallsResponse = z.infer<typeof datasetFromCallsResponse>;
