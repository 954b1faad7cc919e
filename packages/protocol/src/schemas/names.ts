import { z } from 'zod';
import { CALL_ID, DIGEST, OBJECT_NAME, PROJECT_NAME } from '../refs/index.js';

// The ref patterns as zod schemas, with messages for a 400 answer. The
// patterns live in refs/, which stays free of zod for the browser.
export const projectName = z
  .string()
  .regex(PROJECT_NAME, 'must be 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit');
export const objectName = z
  .string()
  .regex(OBJECT_NAME, 'must be 1–256 letters, digits, ".", "_" or "-", starting with a letter or digit');
export const digest = z.string().regex(DIGEST, 'must be a 43-character base64url SHA-256 digest');
export const callId = z.string().regex(CALL_ID, 'must be a UUID');
