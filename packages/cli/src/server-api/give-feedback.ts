import { type Feedback, type FeedbackCreate, feedbackCreateResponse, routes } from '@weft/protocol';
import { postJson, type ServerTarget } from '../http/index.js';
import { parseAnswer } from './parse-answer.js';

/** Records feedback on a call. */
export async function giveFeedback(target: ServerTarget, body: FeedbackCreate): Promise<Feedback> {
  const answer = await postJson(target, routes.feedbackCreate(), body);
  return parseAnswer(feedbackCreateResponse, answer, target, 'giving feedback');
}
