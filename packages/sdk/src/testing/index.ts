import { liveClients, setDefaultClient } from '../client/index.js';
import { resetWarnOnce } from '../diagnostics/index.js';

/**
 * Test helper: shuts down every live client (waiting at most `timeoutMs` for
 * each to flush), clears the default client and forgets one-time warnings,
 * so each test starts from a clean SDK.
 */
export async function resetWeft({ timeoutMs = 0 }: { timeoutMs?: number } = {}): Promise<void> {
  await Promise.all(liveClients().map((client) => client.shutdown({ timeoutMs })));
  setDefaultClient(undefined);
  resetWarnOnce();
}

export { createClient, type SinkFactory, type TestOnlyOptions } from '../client/index.js';
export type { RecordSink } from '../pipeline/index.js';
/** The caller-side structural snapshot, as the tracer takes it, exported for benchmarks that measure it alone. */
export { snapshotTape } from '../values/index.js';
