/** A failed load, said plainly, with a way to try again. */
export function ErrorBox({ error, retry }: { error: Error; retry?: () => void }) {
  return (
    <div class="error-box" role="alert">
      <strong>Could not load:</strong> {error.message}
      {retry && (
        <button type="button" class="button small" onClick={retry}>
          Retry
        </button>
      )}
    </div>
  );
}
