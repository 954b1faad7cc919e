/** An abort signal fired by the first SIGINT or SIGTERM, and a way to stop listening. */
export interface StopSignal {
  signal: AbortSignal;
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM once. Both listeners go as soon as one
 * fires, so a second Ctrl+C during a slow shutdown kills the process the
 * default way instead of being swallowed.
 */
export function stopOnProcessSignals(): StopSignal {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    dispose();
    controller.abort(name);
  };
  const dispose = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return { signal: controller.signal, dispose };
}
