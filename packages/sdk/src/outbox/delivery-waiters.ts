import type { Outbox } from './outbox.js';

/** Where each outbox stood when a flush asked: see `OutboxKeeper.deliveryMark`. */
export type DeliveryMark = readonly { readonly outbox: Outbox; readonly written: number }[];

/** Every record written so far to each of `outboxes`. */
export function deliveryMarkOf(outboxes: Iterable<Outbox>): DeliveryMark {
  return [...outboxes].map((outbox) => ({ outbox, written: outbox.progress.written }));
}

/** True when every record `mark` covers is acknowledged (or dropped), or its outbox is no longer `held`. */
export function isMarkDelivered(mark: DeliveryMark, held: Iterable<Outbox>): boolean {
  const open = new Set(held);
  return mark.every(({ outbox, written }) => outbox.progress.settled >= written || !open.has(outbox));
}

/** The flushes waiting for a mark, each resolved once its mark is delivered (or the keeper closes). */
export class DeliveryWaiters {
  readonly #waiters = new Set<{ readonly mark: DeliveryMark; readonly resolve: () => void }>();

  /** Resolves when a later {@link settle} finds `mark` delivered. */
  wait(mark: DeliveryMark): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#waiters.add({ mark, resolve });
    });
  }

  /** Resolves the waiters whose mark `isDelivered` (every one when `all`); true when some still wait. */
  settle(isDelivered: (mark: DeliveryMark) => boolean, all = false): boolean {
    for (const waiter of this.#waiters) {
      if (all || isDelivered(waiter.mark)) {
        this.#waiters.delete(waiter);
        waiter.resolve();
      }
    }
    return this.#waiters.size > 0;
  }
}
