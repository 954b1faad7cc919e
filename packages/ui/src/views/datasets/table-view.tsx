import { TableRows } from '../../components/index.js';

/** A table (dataset rows) on its own page, where `…/table/<digest>` refs lead. */
export function TableView({ digest }: { digest: string }) {
  return (
    <div class="view table-view">
      <div class="view-head">
        <h1>Table</h1>
        <code class="muted">{digest}</code>
      </div>
      <TableRows digest={digest} />
    </div>
  );
}
