import { z } from 'zod';
import { objectName, projectName } from './names.js';
import { labelName } from './objects.js';

/**
 * A message of a playground conversation, in one provider-neutral shape the
 * server turns into each provider's request: text content, an assistant's
 * tool calls (arguments as the JSON text the model wrote), a tool's result
 * answering one call by id.
 */
export const playgroundMessage = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string().max(4_000_000),
  toolCalls: z
    .array(
      z.object({
        id: z.string().min(1).max(256),
        name: z.string().min(1).max(256),
        arguments: z.string().max(1_000_000),
      }),
    )
    .max(128)
    .optional(),
  /** For a `tool` message: the call it answers. */
  toolCallId: z.string().min(1).max(256).optional(),
});
export type PlaygroundMessage = z.infer<typeof playgroundMessage>;

/** A tool offered to the model: its name, what it does, its arguments' JSON Schema. */
export const playgroundTool = z.object({
  name: z.string().min(1).max(256),
  description: z.string().max(100_000).optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
});
export type PlaygroundTool = z.infer<typeof playgroundTool>;

/** Sampling parameters every provider takes; others are not sent. */
export const playgroundParameters = z.object({
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  maxTokens: z.number().int().positive().max(1_000_000).optional(),
});
export type PlaygroundParameters = z.infer<typeof playgroundParameters>;

/**
 * One playground run: a conversation sent to a provider configured on the
 * server, the answer streamed back, the run traced as a call in `project`.
 */
export const playgroundRun = z.object({
  project: projectName,
  /** A provider id from `playgroundProvidersResponse`. */
  provider: z.string().min(1).max(128),
  model: z.string().min(1).max(256),
  messages: z.array(playgroundMessage).min(1).max(10_000),
  tools: z.array(playgroundTool).max(128).default([]),
  parameters: playgroundParameters.default({}),
  /** The call this run was opened from, recorded as an attribute of the run's call. */
  sourceCallId: z.string().max(256).optional(),
});
export type PlaygroundRun = z.input<typeof playgroundRun>;
export type PlaygroundRunParsed = z.output<typeof playgroundRun>;

/** A provider the playground can run against. Keys and addresses stay on the server. */
export const playgroundProvider = z.object({
  id: z.string(),
  kind: z.enum(['openai', 'anthropic']),
  /** Models to offer first (the user may type any other). */
  models: z.array(z.string()),
});
export type PlaygroundProvider = z.infer<typeof playgroundProvider>;
export const playgroundProvidersResponse = z.object({ providers: z.array(playgroundProvider) });
export type PlaygroundProvidersResponse = z.infer<typeof playgroundProvidersResponse>;

/**
 * What a run streams back, one JSON object a line (`application/x-ndjson`):
 * text and tool-call pieces as they arrive, then `done` with the traced
 * call, or `error` (a provider's refusal, 429, 5xx, or a network failure),
 * after which the run's call is traced with the exception.
 */
export type PlaygroundEvent =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; index: number; id?: string; name?: string; arguments: string }
  | {
      type: 'done';
      callId: string;
      traceId: string;
      finishReason: string | undefined;
      usage:
        | { inputTokens: number; outputTokens: number; cachedInputTokens?: number; reasoningTokens?: number }
        | undefined;
      costUsd: number | undefined;
      latencyMs: number;
      timeToFirstTokenMs: number | undefined;
    }
  | { type: 'error'; callId: string; traceId: string; statusCode: number | undefined; message: string };

/** Saves a value as a new version of an object (the server computes its digest), optionally moving a label to it. */
export const promptSave = z.object({
  project: projectName,
  name: objectName,
  value: z.record(z.string(), z.unknown()),
  label: labelName.optional(),
});
export type PromptSave = z.infer<typeof promptSave>;
