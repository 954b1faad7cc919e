import { randomUUID } from 'node:crypto';
import { debuglog } from 'node:util';
import { CALL_ID, encodeMsgpack, type FeedbackInput, type FeedbackItem, feedbackInput } from '@weft/protocol';
import type { Warnings } from '../diagnostics/index.js';
import type { FlushBarrier, RecordSink } from '../pipeline/index.js';
import { InvalidFeedbackError } from './invalid-feedback-error.js';

const log = debuglog('weft');

/** What `diagnostics().feedback` reports; counters are since init. */
export interface FeedbackStats {
  /** Feedback given no call id (the call was not recorded: its trace was sampled out), so not sent. */
  unrecordedCalls: number;
}

/** What a {@link FeedbackSender} works with. */
export interface FeedbackSenderOptions {
  barrier: FlushBarrier;
  /** The same sink call records go to: the batcher, with its retries and durable outbox. */
  sink: RecordSink;
  warnings: Warnings;
}

/**
 * Sends feedback on calls as `feedback` items of the call batch, so it shares
 * every delivery guarantee of call records: batching, retries, the durable
 * outbox and replay, and `flush()` waits for it. Each item carries an id
 * minted here once, which makes a retried or replayed item a no-op on the
 * server. The call may not have reached the server yet: the server keeps the
 * feedback and attaches it when the call arrives.
 */
export class FeedbackSender {
  readonly #o: FeedbackSenderOptions;
  #unrecorded = 0;

  constructor(options: FeedbackSenderOptions) {
    this.#o = options;
  }

  get stats(): FeedbackStats {
    return { unrecordedCalls: this.#unrecorded };
  }

  /**
   * Validates and queues one feedback; returns its id. Throws
   * {@link InvalidFeedbackError} naming the field for bad input (nothing is
   * sent). No call id (`undefined` or `null`: `currentCall()` in a trace that
   * sampling left out has none) is not bad input: the feedback is checked,
   * counted, logged to `NODE_DEBUG=weft` and not sent; returns `undefined`.
   */
  send(callId: string | null | undefined, feedback: FeedbackInput): string | undefined {
    if (callId !== undefined && callId !== null && (typeof callId !== 'string' || !CALL_ID.test(callId))) {
      throw new InvalidFeedbackError(
        'callId',
        `feedback: \`callId\` must be a call id (a UUID), got ${JSON.stringify(callId)}.`,
      );
    }
    const parsed = feedbackInput.safeParse(feedback);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.map(String).join('.') || 'feedback';
      throw new InvalidFeedbackError(
        field,
        `feedback: \`${field}\` ${issue?.message ?? 'is invalid'}; value is a boolean, a finite number or a label string.`,
      );
    }
    if (callId === undefined || callId === null) {
      this.#unrecorded++;
      log(
        'feedback %s not sent: no call id (the call was not recorded, e.g. its trace was sampled out)',
        parsed.data.name,
      );
      return undefined;
    }
    const id = randomUUID();
    const item: FeedbackItem = { type: 'feedback', id, callId, createdAt: Date.now(), ...parsed.data };
    const epoch = this.#o.barrier.register();
    this.#o.sink.add({
      callId,
      bytes: encodeMsgpack(item),
      done: (outcome) => {
        if (outcome.status === 'failed')
          this.#o.warnings.report(
            'transport',
            `feedback ${item.name} on call ${callId} was not delivered`,
            outcome.error,
            callId,
          );
        this.#o.barrier.settle(epoch, outcome.status, 'other');
      },
    });
    return id;
  }
}
