/** Previous/next buttons with a fixed-width label, so the bar never reflows. */
export function Pager({
  label,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
}: {
  label: string;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="button small" disabled={!hasPrevious} onClick={onPrevious}>
        ‹ Previous
      </button>
      <span class="pager-label">{label}</span>
      <button type="button" class="button small" disabled={!hasNext} onClick={onNext}>
        Next ›
      </button>
    </nav>
  );
}
