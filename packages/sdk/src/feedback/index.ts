export { FeedbackSender, type FeedbackSenderOptions, type FeedbackStats } from './feedback-sender.js';
export { InvalidFeedbackError } from './invalid-feedback-error.js';
