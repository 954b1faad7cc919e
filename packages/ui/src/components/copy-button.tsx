import { useState } from 'preact/hooks';

/** Copies `text()` to the clipboard and says so for a moment. */
export function CopyButton({ text, label = 'Copy as JSON' }: { text: () => string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    const value = text();
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard API needs a secure context; plain-http hosts fall back to a selection copy.
      const area = document.createElement('textarea');
      area.value = value;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setDone(true);
    setTimeout(() => setDone(false), 1_500);
  };
  return (
    <button type="button" class="button small copy-button" onClick={copy}>
      {/* Both labels occupy the same width so the button never jumps. */}
      <span class={done ? 'hidden-label' : ''}>{label}</span>
      <span class={done ? 'overlay-label' : 'hidden-label overlay-label'}>Copied</span>
    </button>
  );
}
