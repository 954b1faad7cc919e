import Fastify, { type FastifyInstance } from 'fastify';
import { InvalidRequestError } from '../errors/index.js';
// Options before middleware: the bundled .d.ts prints `logLevel`'s enum in the
// order TypeScript first meets its literals (pino's come with the middleware),
// and the API snapshot (api/) holds that order.
import { parseServerOptions, type ServerOptions } from '../options/index.js';
import {
  admission,
  bodyLimit,
  bodyShape,
  crossSiteGuard,
  hostGuard,
  projectAccess,
  requireToken,
  securityHeaders,
} from '../middleware/index.js';
import {
  registerAlertRoutes,
  registerDashboardRoutes,
  registerCallRoutes,
  registerDatasetRoutes,
  registerEvaluatorRoutes,
  registerFeedbackRoutes,
  registerFileRoutes,
  registerMetricsRoutes,
  registerObjectRoutes,
  registerOtlpRoutes,
  registerPlaygroundRoutes,
  registerSessionRoutes,
  registerSystemRoutes,
  registerTableRoutes,
  registerTraceDiffRoutes,
  resolvePlaygroundProviders,
} from '../routes/index.js';
import { providersFromEnv } from '../playground/index.js';
import { otlpErrorHandler, registerOtlpBodyParsers } from '../otlp/index.js';
import { registerStaticUi, resolveUiDir } from '../static/index.js';
import type { Storage } from '../storage/index.js';
import { clientErrorHandler } from './client-error-handler.js';
import { registerContentParsers } from './content-parsers.js';
import { errorHandler, HandlerLifetime } from '../http/index.js';
import { connectionLimits } from './connection-limits.js';
import { cutStreamsOnClose } from './cut-streams-on-close.js';
import { idleTimeoutWhileHandling } from './idle-timeout-while-handling.js';
import { loggerOptions } from './logger-options.js';
import { registerMonitoring } from './monitoring.js';
import { type LifecycleOptions, registerLifecycle } from './register-lifecycle.js';

/** Options of {@link createApp}: the server options that shape requests, plus the storage to serve. */
export type AppOptions = Pick<
  ServerOptions,
  | 'host'
  | 'token'
  | 'projectTokens'
  | 'maxBodyBytes'
  | 'maxBodyNodes'
  | 'allowedHosts'
  | 'headersTimeoutMs'
  | 'requestTimeoutMs'
  | 'idleTimeoutMs'
  | 'keepAliveTimeoutMs'
  | 'closeTimeoutMs'
  | 'maxConnections'
  | 'maxRequestsInFlight'
  | 'maxBodyBytesInFlight'
  | 'uiDir'
  | 'logStream'
  | 'logLevel'
  | 'playgroundProviders'
  | 'monitoring'
  | keyof LifecycleOptions
> & { storage: Storage };

/**
 * The server core: a Fastify instance with every route, not yet listening.
 * Test it in-process with `app.inject()`; `startServer` binds it to a port.
 * The caller owns `storage` and closes it after `app.close()`.
 *
 * ```
 * onRequest: hostGuard ─► crossSiteGuard ─► admission ─► bodyLimit ─► (/v1) requireToken
 *   ─► parse body (values counted first) ─► preValidation: bodyShape
 *   ─► preHandler: projectAccess ─► route: validate ─► storage
 *                 every error ─► errorHandler ─► { error: { code, message, path, index } }
 * onSend: securityHeaders (CSP, frame and sniffing protection) on every answer
 * ```
 */
export function createApp(options: AppOptions): FastifyInstance {
  const { storage, ...rest } = options;
  const parsed = parseServerOptions(rest);
  const {
    token,
    projectTokens,
    maxBodyBytes,
    maxBodyNodes,
    uiDir,
    logStream,
    logLevel,
    playgroundProviders,
    monitoring,
  } = parsed;
  const providers = resolvePlaygroundProviders(playgroundProviders ?? providersFromEnv(process.env));
  const app = Fastify({
    logger: logStream === undefined ? false : loggerOptions({ stream: logStream, level: logLevel }),
    bodyLimit: maxBodyBytes,
    ...connectionLimits(parsed),
    // Project names run to 128 characters and object names to 256; Fastify's
    // default limit of 100 would answer long ones with 404.
    routerOptions: { maxParamLength: 500 },
    // Closing drops idle keep-alive sockets at once and lets in-flight requests finish.
    forceCloseConnections: 'idle',
    // Errors the router raises before any route runs (a path with broken
    // percent-encoding such as `%ff` or `%zz`) bypass the error handler;
    // without this they get Fastify's own body instead of `errorResponse`.
    clientErrorHandler,
    frameworkErrors: (error, request, reply) => {
      const malformed =
        error.code === 'FST_ERR_BAD_URL'
          ? new InvalidRequestError(
              [{ path: 'url', message: 'malformed percent-encoding in the path' }],
              'URL',
            )
          : error;
      errorHandler(malformed, request, reply);
    },
  });

  // A request in flight when close() begins keeps its keep-alive socket open
  // for the client's next request; answering it with `Connection: close` lets
  // that socket end with the response, so close() does not wait for the
  // keep-alive timeout.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  cutStreamsOnClose(app, parsed.closeTimeoutMs);

  const { alerts, evaluators } = registerMonitoring(app, storage, monitoring);

  app.server.maxConnections = parsed.maxConnections;
  registerContentParsers(app, { maxBodyNodes });
  app.setErrorHandler(errorHandler);
  app.addHook('onRequest', hostGuard({ listenHost: parsed.host, allowedHosts: parsed.allowedHosts }));
  app.addHook('onRequest', crossSiteGuard({ allowedHosts: parsed.allowedHosts }));
  const handling = new HandlerLifetime(app);
  admission(app, {
    handling,
    maxRequests: parsed.maxRequestsInFlight,
    maxBodyBytes: parsed.maxBodyBytesInFlight,
    bodyLimitBytes: maxBodyBytes,
  });
  app.addHook('onRequest', bodyLimit({ maxBytes: maxBodyBytes }));
  app.addHook('onSend', securityHeaders());
  idleTimeoutWhileHandling(handling, parsed.idleTimeoutMs);
  registerSystemRoutes(app);

  // The tokens guard the whole /v1 scope as an encapsulated plugin, so they
  // apply to every route registered inside however the URL is spelled; the
  // project check is one hook for every route, not a line in each handler.
  const anyToken = token !== undefined || Object.keys(projectTokens ?? {}).length > 0;
  app.register(async (v1) => {
    v1.addHook('preValidation', bodyShape());
    if (anyToken) {
      v1.addHook('onRequest', requireToken({ token, projectTokens }));
      v1.addHook('preHandler', projectAccess());
    }
    registerCallRoutes(v1, { storage });
    registerObjectRoutes(v1, { storage });
    registerTableRoutes(v1, { storage });
    registerFileRoutes(v1, { storage });
    // OTLP/HTTP ingest in a scope of its own: its body parsers replace the
    // others, and its errors answer as `google.rpc.Status`.
    v1.register(async (otlp) => {
      registerOtlpBodyParsers(otlp, { maxBytes: maxBodyBytes, maxNodes: maxBodyNodes });
      otlp.setErrorHandler(otlpErrorHandler);
      registerOtlpRoutes(otlp, { storage });
    });
    registerFeedbackRoutes(v1, { storage });
    registerSessionRoutes(v1, { storage });
    registerTraceDiffRoutes(v1, { storage });
    registerDatasetRoutes(v1, { storage });
    registerMetricsRoutes(v1, { storage });
    registerPlaygroundRoutes(v1, { storage, providers });
    registerAlertRoutes(v1, { alerts });
    registerEvaluatorRoutes(v1, { evaluators });
    registerLifecycle(v1, { storage, options: parsed });
    registerDashboardRoutes(v1, { monitoring: storage.monitoring });
  });

  registerStaticUi(app, { dir: resolveUiDir(uiDir) });
  return app;
}
