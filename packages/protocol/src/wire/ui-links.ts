/** What a link to the calls view selects (the web UI reads the same parameters). */
export interface CallsViewLink {
  project: string;
  /** Root calls only: the Traces section instead of Calls. */
  roots?: boolean;
  op?: string;
  status?: string;
  /** Attribute chips, `key=value` (strings quoted when they would read as a number or boolean). */
  attributes?: Record<string, string | number | boolean>;
  session?: string;
  /** Start-time range, epoch ms, `[from, to)`. */
  from?: number;
  to?: number;
}

/**
 * The URL hash of the web UI's calls view with these filters
 * (`#/<project>/calls?op=…&from=…`): what alert messages and dashboard
 * points link to. Pure (no imports), so the UI takes this file by source.
 */
export function callsViewHash(link: CallsViewLink): string {
  const params = new URLSearchParams();
  if (link.op !== undefined) params.set('op', link.op);
  if (link.status !== undefined) params.set('status', link.status);
  for (const [key, value] of Object.entries(link.attributes ?? {})) {
    const text =
      typeof value === 'string' && /^(true|false|-?\d+(\.\d+)?)$/.test(value)
        ? JSON.stringify(value)
        : String(value);
    params.append('attrs', `${key}=${text}`);
  }
  if (link.session !== undefined) params.set('session', link.session);
  if (link.from !== undefined) params.set('from', String(link.from));
  if (link.to !== undefined) params.set('to', String(link.to));
  const search = params.toString();
  return `#/${encodeURIComponent(link.project)}/${link.roots ? 'traces' : 'calls'}${search ? `?${search}` : ''}`;
}
