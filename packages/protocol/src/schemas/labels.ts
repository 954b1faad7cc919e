import { z } from 'zod';
import { digest, objectName, projectName } from './names.js';
import { timestampMs } from './common.js';
import { labelName } from './objects.js';

/**
 * Points a label of an object name at one of its versions (moving it when it
 * is set already). The version is named by number or by digest.
 */
export const objectLabelSet = z
  .strictObject({
    project: projectName,
    name: objectName,
    label: labelName,
    version: z.number().int().positive().optional(),
    digest: digest.optional(),
  })
  .refine((body) => (body.version === undefined) !== (body.digest === undefined), {
    message: 'give exactly one of `version` (a number) and `digest`',
    path: ['version'],
  });
export type ObjectLabelSet = z.input<typeof objectLabelSet>;

/** Which version a label points at. */
export const objectLabel = z.object({
  label: labelName,
  version: z.number().int().positive(),
  digest,
  updatedAt: timestampMs,
});
export type ObjectLabel = z.infer<typeof objectLabel>;

export const objectLabelsResponse = z.object({ labels: z.array(objectLabel) });
export type ObjectLabelsResponse = z.infer<typeof objectLabelsResponse>;
