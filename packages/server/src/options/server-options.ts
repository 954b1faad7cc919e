import { DEFAULT_PORT } from '@weft/protocol';
import { z } from 'zod';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/** 64 MiB: large enough for a batch of big records or a sizeable file, small enough to bound memory. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Options of {@link startServer} (and, except host/port/dbPath, of `createApp`). */
export const serverOptions = z.object({
  /**
   * Address to listen on. Anything but loopback requires `token`.
   * @default '127.0.0.1'
   */
  host: z.string().min(1).default('127.0.0.1'),
  /**
   * TCP port; 0 picks a free one (read it back from `RunningServer.port`).
   * @default DEFAULT_PORT (7420)
   */
  port: z.number().int().min(0).max(65_535).default(DEFAULT_PORT),
  /**
   * SQLite database file; its folder is created.
   * @default './.weft/weft.db'
   */
  dbPath: z.string().min(1).default('./.weft/weft.db'),
  /** Bearer token every /v1 request must carry. Required beyond loopback. */
  token: z.string().min(1).optional(),
  /**
   * Largest request body accepted; larger ones get 413.
   * @default 64 MiB
   */
  maxBodyBytes: z.number().int().positive().default(DEFAULT_MAX_BODY_BYTES),
  /**
   * Folder holding the built web UI (with index.html); `false` serves none.
   * @default the `ui` folder next to the built server
   */
  uiDir: z.union([z.string().min(1), z.instanceof(URL), z.literal(false)]).optional(),
});
export type ServerOptions = z.input<typeof serverOptions>;
export type ServerOptionsParsed = z.output<typeof serverOptions>;

/** Validates options, throwing `WEFT_INVALID_OPTIONS` naming the first bad one. */
export function parseServerOptions(input: ServerOptions = {}): ServerOptionsParsed {
  const result = serverOptions.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new InvalidOptionsError(issue?.path.map(String).join('.') ?? '', issue?.message ?? 'invalid');
}
