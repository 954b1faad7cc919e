/** The identity of one unit of work in a run: a row and one of its trials. */
export function rowKey(rowIndex: number, trial: number): string {
  return `${rowIndex}:${trial}`;
}
