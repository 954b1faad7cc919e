import { useEffect, useState } from 'preact/hooks';
import type { PlaygroundEvent, PlaygroundProvider } from '../../api/index.js';
import { ErrorBox, Page } from '../../components/index.js';
import { useApp, useLoad } from '../../hooks/index.js';
import {
  conversationOf,
  type PlaygroundSource,
  promptValue,
  type Variant,
  variantFromConversation,
  variantFromPrompt,
} from '../../model/index.js';
import { href, type Route } from '../../router/index.js';
import { IDLE, RunOutput, type RunState } from './run-output.js';
import { VariantEditor } from './variant-editor.js';

/** At most this many variants run side by side. */
const MAX_VARIANTS = 4;

/** The provider a source's model belongs with: Claude models to an Anthropic provider, others to the first OpenAI-compatible one. */
function providerFor(model: string | undefined, providers: readonly PlaygroundProvider[]): string {
  const kind = model?.startsWith('claude') ? 'anthropic' : 'openai';
  return (providers.find((p) => p.kind === kind) ?? providers[0])?.id ?? '';
}

function reduceRun(run: RunState, event: PlaygroundEvent, project: string): RunState {
  switch (event.type) {
    case 'text':
      return { ...run, text: run.text + event.text };
    case 'tool-call': {
      const toolCalls = [...run.toolCalls];
      const call = toolCalls[event.index] ?? { arguments: '' };
      toolCalls[event.index] = {
        id: event.id ?? call.id,
        name: event.name ?? call.name,
        arguments: call.arguments + event.arguments,
      };
      return { ...run, toolCalls };
    }
    case 'done':
      return {
        ...run,
        status: 'done',
        callId: event.callId,
        project,
        usage: event.usage,
        costUsd: event.costUsd,
        latencyMs: event.latencyMs,
        timeToFirstTokenMs: event.timeToFirstTokenMs,
      };
    default:
      return { ...run, status: 'error', error: event.message, callId: event.callId, project };
  }
}

/**
 * The playground: a traced model call (`?call=<id>`) or a prompt object
 * (`?object=<name>&v=<version>`) opened with its messages, model,
 * parameters and tools; edited, run against a provider the server has (up
 * to four variants side by side, each streamed), every run traced as a call
 * in the project picked; an edited prompt saved as a new version of a
 * prompt object, with a label moved to it.
 */
export function PlaygroundView({ route }: { route: Route }) {
  const { api, project } = useApp();
  const callId = route.query.get('call') ?? undefined;
  const objectName = route.query.get('object') ?? undefined;
  const objectVersion = route.query.get('v') ?? 'latest';
  const setup = useLoad(
    async (signal) => {
      const { providers } = await api.playgroundProviders(project, signal);
      const projects = await api.listProjects(signal).then(
        (r) => r.projects.map((p) => p.name),
        () => [project],
      );
      let source: PlaygroundSource | undefined;
      let promptSource: unknown;
      if (callId !== undefined) {
        const call = await api.readCall(project, callId, signal);
        const conversation = conversationOf(call);
        if (conversation === undefined)
          throw new Error(`Call ${callId} holds no messages to run (it is not a model call).`);
        source = variantFromConversation(conversation, providerFor(conversation.model, providers));
      } else if (objectName !== undefined) {
        const object = await api.readObject(project, objectName, objectVersion, signal);
        promptSource = object.value;
        source = variantFromPrompt(
          object.value,
          (inputs) => conversationOf({ ...EMPTY_CALL, inputs }),
          providerFor(undefined, providers),
        );
        if (source === undefined) {
          throw new Error(
            `Object ${objectName} holds no prompt: the playground reads \`messages\` or a text field (template, prompt, text, system).`,
          );
        }
        source.variant.provider = providerFor(source.variant.model, providers);
      }
      return { providers, projects, source, promptSource };
    },
    [project, callId, objectName, objectVersion],
  );
  const [variants, setVariants] = useState<Variant[]>([]);
  const [runs, setRuns] = useState<RunState[]>([]);
  const [target, setTarget] = useState(project);
  const [saveName, setSaveName] = useState(objectName ?? '');
  const [saveLabel, setSaveLabel] = useState('');
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const [saveError, setSaveError] = useState<Error | undefined>(undefined);

  useEffect(() => {
    const data = setup.data;
    if (data === undefined) return;
    const first: Variant = data.source?.variant ?? {
      provider: data.providers[0]?.id ?? '',
      model: data.providers[0]?.models[0] ?? '',
      parameters: {},
      messages: [{ role: 'user', content: '' }],
      tools: [],
    };
    setVariants([first]);
    setRuns([IDLE]);
  }, [setup.data]);

  const providers = setup.data?.providers ?? [];
  const update = (i: number, next: Variant) =>
    setVariants((list) => list.map((v, j) => (j === i ? next : v)));
  const run = async (i: number) => {
    const variant = variants[i];
    if (variant === undefined) return;
    setRuns((list) => list.map((r, j) => (j === i ? { ...IDLE, status: 'running' } : r)));
    const apply = (event: PlaygroundEvent) =>
      setRuns((list) => list.map((r, j) => (j === i ? reduceRun(r, event, target) : r)));
    try {
      await api.runPlayground(
        {
          project: target,
          provider: variant.provider,
          model: variant.model,
          messages: variant.messages,
          tools: variant.tools,
          parameters: variant.parameters,
          ...(callId === undefined ? {} : { sourceCallId: callId }),
        },
        apply,
      );
    } catch (error) {
      setRuns((list) =>
        list.map((r, j) => (j === i ? { ...r, status: 'error', error: (error as Error).message } : r)),
      );
    }
  };
  const save = async (variant: Variant) => {
    setSaveError(undefined);
    try {
      const created = await api.savePrompt({
        project,
        name: saveName,
        value: promptValue(setup.data?.promptSource, variant),
        ...(saveLabel === '' ? {} : { label: saveLabel }),
      });
      setSaved(
        `Saved ${created.name} v${created.version}${created.label ? `, label ${created.label} moved to it` : ''}.`,
      );
    } catch (error) {
      setSaveError(error as Error);
    }
  };

  const sourceLine =
    callId !== undefined ? (
      <>
        From call <a href={href(project, ['calls', callId])}>{callId}</a>
      </>
    ) : objectName !== undefined ? (
      <>
        From prompt <a href={href(project, ['objects', objectName], { v: objectVersion })}>{objectName}</a> (
        {objectVersion})
      </>
    ) : (
      'A new prompt'
    );
  return (
    <Page name="playground" title="Playground">
      {setup.error && <ErrorBox error={setup.error} retry={setup.reload} />}
      {setup.data && providers.length === 0 && (
        <p class="error-box" role="alert">
          No model provider is configured on this server: start <code>weft serve</code> with{' '}
          <code>OPENAI_API_KEY</code> (and <code>OPENAI_BASE_URL</code> for another OpenAI-compatible server)
          or <code>ANTHROPIC_API_KEY</code> set. Keys stay on the server.
        </p>
      )}
      {setup.data && (
        <>
          <div class="playground-bar">
            <span class="muted">{sourceLine}</span>
            {(setup.data.source?.dropped.length ?? 0) > 0 && (
              <span class="muted">
                {' '}
                · {setup.data.source?.dropped.length} image, audio or file parts are not carried over
              </span>
            )}
            <label>
              Trace runs in project
              <select
                name="target-project"
                value={target}
                onChange={(e) => setTarget((e.target as HTMLSelectElement).value)}
              >
                {[...new Set([project, ...setup.data.projects])].map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              class="button"
              disabled={variants.length >= MAX_VARIANTS}
              onClick={() => {
                setVariants((list) => [...list, structuredClone(list[list.length - 1] as Variant)]);
                setRuns((list) => [...list, IDLE]);
              }}
            >
              Add variant
            </button>
            <button
              type="button"
              class="button primary"
              disabled={providers.length === 0 || runs.some((r) => r.status === 'running')}
              onClick={() => variants.forEach((_, i) => void run(i))}
            >
              Run {variants.length > 1 ? `all ${variants.length}` : ''}
            </button>
          </div>
          <div class="playground-save">
            <label>
              Prompt name
              <input
                name="prompt-name"
                value={saveName}
                placeholder="my-prompt"
                onInput={(e) => setSaveName((e.target as HTMLInputElement).value.trim())}
              />
            </label>
            <label>
              Label to move (optional)
              <input
                name="prompt-label"
                value={saveLabel}
                placeholder="production"
                onInput={(e) => setSaveLabel((e.target as HTMLInputElement).value.trim())}
              />
            </label>
            {saved && (
              <span class="saved-note" role="status">
                {saved}
              </span>
            )}
            {saveError && <ErrorBox error={saveError} />}
          </div>
          <div class="variants" data-count={variants.length}>
            {variants.map((v, i) => (
              <section key={i} class="variant" data-variant={i + 1}>
                <VariantEditor
                  index={i}
                  variant={v}
                  providers={providers}
                  onChange={(next) => update(i, next)}
                  onRemove={
                    variants.length > 1
                      ? () => {
                          setVariants((list) => list.filter((_, j) => j !== i));
                          setRuns((list) => list.filter((_, j) => j !== i));
                        }
                      : undefined
                  }
                />
                <div class="variant-actions">
                  <button
                    type="button"
                    class="button"
                    disabled={providers.length === 0 || runs[i]?.status === 'running'}
                    onClick={() => void run(i)}
                  >
                    Run
                  </button>
                  <button
                    type="button"
                    class="button"
                    disabled={saveName === ''}
                    onClick={() => void save(v)}
                  >
                    Save as prompt version
                  </button>
                </div>
                <RunOutput run={runs[i] ?? IDLE} />
              </section>
            ))}
          </div>
        </>
      )}
    </Page>
  );
}

/** A call with nothing but inputs: how a prompt object's value is read as a conversation. */
const EMPTY_CALL = {
  project: '',
  id: '',
  traceId: '',
  parentId: null,
  opName: 'prompt',
  displayName: null,
  startedAt: 0,
  endedAt: null,
  status: 'running' as const,
  inputs: {},
  output: null,
  exception: null,
  summary: null,
  attributes: {},
};
