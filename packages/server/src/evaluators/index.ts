export { callMatches } from './call-matches.js';
export { evaluatorFeedbackId } from './evaluator-feedback-id.js';
export { EVALUATOR_OP_PREFIX } from './evaluator-pull.js';
export { EvaluatorService } from './evaluator-service.js';
export { JudgeRunner } from './judge/judge-runner.js';
export type { JudgeEndpoint } from './judge/judge-client.js';
