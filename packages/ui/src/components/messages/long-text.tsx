import { useState } from 'preact/hooks';
import { formatCount } from '../../model/index.js';

/** Text past this many characters is cut, with a button to show all of it. */
export const TEXT_PREVIEW_CHARS = 20_000;

/**
 * Text as written (line breaks kept, never `\n`), cut at
 * {@link TEXT_PREVIEW_CHARS} with _Show all_: a 1 MB tool result renders
 * its start at once instead of freezing the tab.
 */
export function LongText({ text, class: className = 'part-text' }: { text: string; class?: string }) {
  const [all, setAll] = useState(false);
  const cut = !all && text.length > TEXT_PREVIEW_CHARS;
  return (
    <div class={className}>
      {cut ? `${text.slice(0, TEXT_PREVIEW_CHARS)}…` : text}
      {cut && (
        <div>
          <button type="button" class="link-button show-all" onClick={() => setAll(true)}>
            Show all {formatCount(text.length)} characters
          </button>
        </div>
      )}
    </div>
  );
}
