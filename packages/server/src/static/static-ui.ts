import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../errors/index.js';
import { contentTypeOf } from './content-type.js';

/** Paths that belong to the API: never answered with the UI, even for a browser. */
const API_PATH = /^\/(?:v1|health|version)(?:\/|$)/;

/**
 * Where the built UI sits by default: `dist/ui/` next to the bundled server
 * (tsup bundles this module into dist/index.js, so `import.meta.url` is there).
 */
export function defaultUiDir(): URL {
  return new URL('./ui/', import.meta.url);
}

/** The UI folder to serve, or `undefined` when there is none (no index.html). */
export function resolveUiDir(uiDir: string | URL | false | undefined): string | undefined {
  if (uiDir === false) return undefined;
  const dir =
    uiDir instanceof URL ? resolve(fileURLToPath(uiDir)) : resolve(uiDir ?? fileURLToPath(defaultUiDir()));
  return existsSync(resolve(dir, 'index.html')) ? dir : undefined;
}

/**
 * Serves the web UI: its files as they are, and `index.html` for any other GET
 * that a browser navigates to (SPA routes) — but never for API paths, which
 * keep their JSON 404. Without a built UI, `/` explains how to get one.
 */
export function registerStaticUi(app: FastifyInstance, { dir }: { dir: string | undefined }): void {
  app.get('/', async (request, reply) => {
    if (dir !== undefined) return sendFile(reply, resolve(dir, 'index.html'), false);
    const note =
      'Weft trace server is running. The web UI is not built; run `npm run build` in the repo to include it. API: /v1, health: /health.';
    if (accepts(request, 'text/html')) {
      return reply.type('text/html; charset=utf-8').send(`<!doctype html><title>Weft</title><p>${note}</p>`);
    }
    return { name: 'weft', ui: false, message: note };
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = pathOf(request);
    const notFound = new NotFoundError(`No route ${request.method} ${path}.`);
    if (dir === undefined || (request.method !== 'GET' && request.method !== 'HEAD') || path === undefined)
      throw notFound;
    if (API_PATH.test(path)) throw notFound;
    const file = resolve(dir, `.${path}`);
    // A resolved path outside the UI folder (`/../..`) is never served.
    if (file.startsWith(dir + sep) && (await isFile(file)))
      return sendFile(reply, file, path.startsWith('/assets/'));
    if (accepts(request, 'text/html')) return sendFile(reply, resolve(dir, 'index.html'), false);
    throw notFound;
  });
}

function pathOf(request: FastifyRequest): string | undefined {
  const raw = request.url.split('?')[0] ?? '/';
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

function accepts(request: FastifyRequest, type: string): boolean {
  return (request.headers.accept ?? '').includes(type);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function sendFile(reply: FastifyReply, path: string, immutable: boolean): FastifyReply {
  // Vite fingerprints files under assets/, so they may be cached forever; index.html never.
  return reply
    .type(contentTypeOf(path))
    .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    .send(createReadStream(path));
}
