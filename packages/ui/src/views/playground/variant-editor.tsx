import type { PlaygroundMessage, PlaygroundProvider } from '../../api/index.js';
import type { Variant } from '../../model/index.js';

const ROLES: PlaygroundMessage['role'][] = ['system', 'user', 'assistant', 'tool'];

function numberOrUndefined(text: string): number | undefined {
  const value = Number(text);
  return text.trim() === '' || !Number.isFinite(value) ? undefined : value;
}

/** The editable half of a variant's column: provider, model, parameters and messages. */
export function VariantEditor({
  index,
  variant,
  providers,
  onChange,
  onRemove,
}: {
  index: number;
  variant: Variant;
  providers: readonly PlaygroundProvider[];
  onChange: (next: Variant) => void;
  onRemove: (() => void) | undefined;
}) {
  const provider = providers.find((p) => p.id === variant.provider);
  const setMessage = (i: number, patch: Partial<PlaygroundMessage>) =>
    onChange({ ...variant, messages: variant.messages.map((m, j) => (j === i ? { ...m, ...patch } : m)) });
  const label = `Variant ${index + 1}`;
  return (
    <fieldset class="variant-editor" aria-label={label}>
      <div class="variant-head">
        <strong>{label}</strong>
        {onRemove && (
          <button type="button" class="link-button" onClick={onRemove}>
            Remove
          </button>
        )}
      </div>
      <div class="variant-settings">
        <label>
          Provider
          <select
            name="provider"
            value={variant.provider}
            onChange={(e) => onChange({ ...variant, provider: (e.target as HTMLSelectElement).value })}
          >
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id}
              </option>
            ))}
          </select>
        </label>
        <label class="grow">
          Model
          <input
            name="model"
            list={`models-${index}`}
            value={variant.model}
            onInput={(e) => onChange({ ...variant, model: (e.target as HTMLInputElement).value.trim() })}
          />
          <datalist id={`models-${index}`}>
            {(provider?.models ?? []).map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        </label>
        <label>
          Temperature
          <input
            name="temperature"
            inputMode="decimal"
            class="narrow-input"
            value={variant.parameters.temperature ?? ''}
            onInput={(e) =>
              onChange({
                ...variant,
                parameters: {
                  ...variant.parameters,
                  temperature: numberOrUndefined((e.target as HTMLInputElement).value),
                },
              })
            }
          />
        </label>
        <label>
          Max tokens
          <input
            name="maxTokens"
            inputMode="numeric"
            class="narrow-input"
            value={variant.parameters.maxTokens ?? ''}
            onInput={(e) =>
              onChange({
                ...variant,
                parameters: {
                  ...variant.parameters,
                  maxTokens: numberOrUndefined((e.target as HTMLInputElement).value),
                },
              })
            }
          />
        </label>
      </div>
      <ol class="message-editors">
        {variant.messages.map((m, i) => (
          <li key={i} class={`message-editor role-${m.role}`} data-role={m.role}>
            <div class="message-editor-head">
              <select
                aria-label={`Role of message ${i + 1}`}
                value={m.role}
                onChange={(e) =>
                  setMessage(i, { role: (e.target as HTMLSelectElement).value as PlaygroundMessage['role'] })
                }
              >
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
              {m.toolCallId && <code class="muted">answers {m.toolCallId}</code>}
              <button
                type="button"
                class="link-button"
                aria-label={`Delete message ${i + 1}`}
                onClick={() => onChange({ ...variant, messages: variant.messages.filter((_, j) => j !== i) })}
              >
                Delete
              </button>
            </div>
            <textarea
              aria-label={`Message ${i + 1} (${m.role})`}
              rows={Math.min(12, Math.max(2, m.content.split('\n').length))}
              value={m.content}
              onInput={(e) => setMessage(i, { content: (e.target as HTMLTextAreaElement).value })}
            />
            {m.toolCalls?.map((c) => (
              <div key={c.id} class="tool-card tool-call" data-tool={c.name}>
                <strong class="tool-name">{c.name}</strong> <code class="muted tool-id">{c.id}</code>
                <div class="part-text">{c.arguments}</div>
              </div>
            ))}
          </li>
        ))}
      </ol>
      <button
        type="button"
        class="button small"
        onClick={() =>
          onChange({ ...variant, messages: [...variant.messages, { role: 'user', content: '' }] })
        }
      >
        Add message
      </button>
      {variant.tools.length > 0 && (
        <p class="muted tools-line">Tools offered: {variant.tools.map((t) => t.name).join(', ')}</p>
      )}
    </fieldset>
  );
}
