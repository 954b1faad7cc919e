export { FeedbackSender, type FeedbackSenderOptions } from './feedback-sender.js';
export { InvalidFeedbackError } from './invalid-feedback-error.js';
