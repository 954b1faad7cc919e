import { CALL_ID, PROJECT_NAME } from '@weft/protocol';
import { z } from 'zod';

// Argument schemas the tools share. The MCP SDK validates every call's
// arguments with them and answers a mismatch with an error naming the argument.

export const projectArg = z
  .string()
  .regex(PROJECT_NAME, 'a project name: letters, digits, ".", "_" or "-"')
  .optional()
  .describe("Project; default: the one weft mcp was started with, else the server's only project");

export const callIdArg = z.string().regex(CALL_ID, 'a call id (a UUID)');

/** A time as ISO 8601, epoch ms, or a duration ago (`30m`, `6h`, `7d`). */
export const timeArg = z.union([z.string().min(1), z.number().nonnegative()]).optional();

export const filterValue = z.union([z.string().max(1_000), z.number(), z.boolean()]);
