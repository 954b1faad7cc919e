import type { FastifyInstance, FastifyRequest } from 'fastify';

/** What runs when the server starts and stops working on a request; see {@link HandlerLifetime}. */
export interface HandlerLifetimeListener {
  /** The route's handler is about to run: the body has been read and checked. */
  started(request: FastifyRequest): void;
  /** The answer starts (the handler has settled, whether it answered or failed). */
  ended(request: FastifyRequest): void;
}

/**
 * The one tracker of "the server is working on this request": from
 * `preHandler` (the body has been read, so its receipt is over) to `onSend`
 * (the answer starts). Fastify makes that answer even when the client has
 * gone, once the handler settles, so every start has its end. A request
 * refused before `preHandler` (admission, body limit, a bad body) neither
 * starts nor ends.
 *
 * Admission holds a request's slot while its handler runs, and the idle
 * timeout is paused meanwhile; both listen here so the two never disagree
 * on when handling starts and ends. Listeners run in the order they were
 * added.
 */
export class HandlerLifetime {
  readonly #listeners: HandlerLifetimeListener[] = [];
  readonly #running = new WeakSet<FastifyRequest>();

  constructor(app: FastifyInstance) {
    app.addHook('preHandler', (request, _reply, done) => {
      this.#running.add(request);
      for (const listener of this.#listeners) listener.started(request);
      done();
    });
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (this.#running.delete(request)) for (const listener of this.#listeners) listener.ended(request);
      done(null, payload);
    });
  }

  /** Calls `listener` at the start and end of every request's handling from now on. */
  listen(listener: HandlerLifetimeListener): void {
    this.#listeners.push(listener);
  }
}
