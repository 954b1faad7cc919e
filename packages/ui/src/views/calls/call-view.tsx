import { useApp, useLoad } from '../../hooks/index.js';
import { CallDetail, ErrorBox } from '../../components/index.js';

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
