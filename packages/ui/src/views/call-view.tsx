import { useApp } from '../app-context.js';
import { CallDetail } from '../components/call-detail.js';
import { ErrorBox } from '../components/error-box.js';
import { useLoad } from '../hooks/use-load.js';

/** One call on its own page (where `weft:///…/call/<id>` refs lead). */
export function CallView({ id }: { id: string }) {
  const { api, project } = useApp();
  const call = useLoad((signal) => api.readCall(project, id, signal), [project, id]);
  return (
    <div class="view call-view">
      {call.error && <ErrorBox error={call.error} retry={call.reload} />}
      {call.data ? <CallDetail call={call.data} /> : !call.error && <div class="placeholder-panel tall" />}
    </div>
  );
}
