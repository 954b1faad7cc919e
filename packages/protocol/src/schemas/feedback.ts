import { z } from 'zod';
import { callId, projectName } from './names.js';
import { timestampMs } from './common.js';

/** A feedback value: a boolean (thumbs up/down), a finite number (a score) or a short label. */
export const feedbackValue = z.union([
  z.boolean(),
  z.number().finite(),
  z.string().min(1, 'a label must not be empty').max(256),
]);
export type FeedbackValue = z.infer<typeof feedbackValue>;

/** What a person or a program says about a call: `{ name, value, comment?, source? }`. */
export const feedbackInput = z.object({
  /** What is judged (`thumbs`, `correctness`, `tone`). */
  name: z.string().min(1).max(256),
  value: feedbackValue,
  comment: z.string().max(10_000).optional(),
  /** Who gave it (`user`, `annotator:ana`, `ui`). */
  source: z.string().min(1).max(256).optional(),
});
export type FeedbackInput = z.infer<typeof feedbackInput>;

/**
 * Feedback as a call batch item. `id` makes delivery idempotent: the SDK
 * mints it once, so a retried or replayed item is stored once. The call may
 * arrive before or after its feedback.
 */
export const feedbackItem = feedbackInput.extend({
  type: z.literal('feedback'),
  id: callId,
  callId,
  createdAt: timestampMs,
});
export type FeedbackItem = z.infer<typeof feedbackItem>;

/** Body of `routes.feedbackCreate`: one feedback on one call; `id` optional (the server mints one). */
export const feedbackCreate = feedbackInput.extend({
  project: projectName,
  callId,
  id: callId.optional(),
});
export type FeedbackCreate = z.input<typeof feedbackCreate>;

/** One stored feedback, as `call.feedback` and the feedback routes return it. */
export const feedback = feedbackInput.extend({
  id: callId,
  createdAt: timestampMs,
});
export type Feedback = z.infer<typeof feedback>;

export const feedbackCreateResponse = feedback;
export const feedbackListResponse = z.object({ feedback: z.array(feedback) });
export type FeedbackListResponse = z.infer<typeof feedbackListResponse>;
