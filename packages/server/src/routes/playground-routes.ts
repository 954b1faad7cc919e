import { PassThrough } from 'node:stream';
import { digestBytes, type PlaygroundEvent, playgroundRun, promptSave, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { InvalidRequestError } from '../errors/index.js';
import { projectParams, routePattern } from '../http/index.js';
import { validate } from '../middleware/index.js';
import { defaultModels, type PlaygroundProviderConfig, runPlayground } from '../playground/index.js';
import type { Storage } from '../storage/index.js';
import { canonicalOrReject } from './canonical-or-reject.js';

const parseRun = validate(playgroundRun, 'body');
const parseSave = validate(promptSave, 'body');
const parseProject = validate(projectParams, 'params');

/**
 * The playground: which providers the server may call (ids, kinds and
 * models — never keys or addresses), a run streamed back as NDJSON and
 * traced as a call, and saving an edited prompt as a new object version.
 */
export function registerPlaygroundRoutes(
  app: FastifyInstance,
  { storage, providers }: { storage: Storage; providers: readonly Required<PlaygroundProviderConfig>[] },
): void {
  const byId = new Map(providers.map((p) => [p.id, p]));

  app.get(routePattern(routes.playgroundProviders, 'project'), async (request) => {
    parseProject(request.params);
    return { providers: providers.map((p) => ({ id: p.id, kind: p.kind, models: p.models })) };
  });

  app.post(routes.playgroundRun(), async (request, reply) => {
    const run = parseRun(request.body);
    const provider = byId.get(run.provider);
    if (provider === undefined) {
      const known =
        providers.map((p) => p.id).join(', ') ||
        'none: set OPENAI_API_KEY or ANTHROPIC_API_KEY for `weft serve`';
      throw new InvalidRequestError(
        [
          {
            path: 'provider',
            message: `no provider ${JSON.stringify(run.provider)} is configured (configured: ${known})`,
          },
        ],
        'body',
      );
    }
    const stream = new PassThrough();
    const controller = new AbortController();
    // The browser went away: stop paying for tokens nobody reads.
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    const send = (event: PlaygroundEvent) => stream.write(`${JSON.stringify(event)}\n`);
    runPlayground(run, { provider, storage, send, signal: controller.signal })
      .catch((error: unknown) => request.log.error({ err: error }, 'playground run failed'))
      .finally(() => stream.end());
    return reply.type('application/x-ndjson; charset=utf-8').header('cache-control', 'no-store').send(stream);
  });

  app.post(routes.promptSave(), async (request) => {
    const { project, name, value, label } = parseSave(request.body);
    const canonicalValue = canonicalOrReject(value, 'value');
    const created = await storage.putObject({
      project,
      name,
      kind: 'object',
      digest: digestBytes(canonicalValue),
      canonicalValue,
    });
    if (label === undefined) return created;
    await storage.setObjectLabel(project, name, label, { version: created.version });
    return { ...created, label };
  });
}

/** Providers as given, each with its models listed (the price table's of its kind when none were). */
export function resolvePlaygroundProviders(
  providers: readonly PlaygroundProviderConfig[],
): Required<PlaygroundProviderConfig>[] {
  return providers.map((p) => ({ ...p, models: p.models ?? defaultModels(p.kind) }));
}
