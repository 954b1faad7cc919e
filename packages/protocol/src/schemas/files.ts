import { z } from 'zod';
import { digest } from './names.js';

/** Response to a file upload: the content address of the bytes (`digestBytes`). */
export const fileCreateResponse = z.object({ digest, size: z.number().int().nonnegative() });
export type FileCreateResponse = z.infer<typeof fileCreateResponse>;
