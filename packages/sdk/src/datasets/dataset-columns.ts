/**
 * The top-level keys of a dataset's object rows, in the order they are first
 * seen. Rows are stored as canonical JSON (keys sorted, so that equal rows
 * share a digest); the dataset's object version records this list beside
 * them so the UI can show columns in the order the user wrote them.
 */
export function datasetColumns(rows: readonly unknown[]): string[] {
  const columns = new Set<string>();
  for (const row of rows) {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) continue;
    for (const key of Object.keys(row)) columns.add(key);
  }
  return [...columns];
}
