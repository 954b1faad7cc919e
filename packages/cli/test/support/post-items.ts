import type { BatchItem } from '@weft/protocol';
import { routes } from '@weft/protocol';
import { request } from 'undici';

/** Items per request: under the server's batch limit. */
const CHUNK = 5_000;

/** Sends call records (and feedback) to a real server, in batches, as the SDK would; fails the test on a refusal. */
export async function postItems(
  url: string,
  project: string,
  items: readonly BatchItem[],
  token?: string,
): Promise<void> {
  for (let i = 0; i < items.length; i += CHUNK) {
    const res = await request(`${url}${routes.callBatch()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ project, items: items.slice(i, i + CHUNK) }),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`seeding ${project} failed: HTTP ${res.statusCode} ${text}`);
  }
}

/** POSTs a JSON body to a route and returns the answer (for seeding datasets and the like). */
export async function postJsonTo(url: string, path: string, body: unknown, token?: string): Promise<unknown> {
  const res = await request(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.body.json()) as unknown;
  if (res.statusCode !== 200)
    throw new Error(`POST ${path} failed: HTTP ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}
