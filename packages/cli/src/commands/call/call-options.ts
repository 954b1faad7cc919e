import type { ServerSettings } from '../server-flags.js';

/** Options of `weft call`. */
export interface CallOptions extends ServerSettings {
  id: string;
  json: boolean;
}
