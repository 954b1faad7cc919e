import { useEffect, useRef, useState } from 'preact/hooks';

/** The state of data loaded for a view. `data` keeps the last value while reloading, so nothing flashes. */
export interface Load<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** Loads again without clearing what is shown (for live refresh). */
  reload: () => void;
}

/**
 * Runs `load` whenever `deps` change, aborting the previous run so a slow
 * answer to an old filter never overwrites a newer one.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Load<T> {
  const [state, setState] = useState<{ data: T | undefined; error: Error | undefined; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // The caller's deps, like useEffect's, plus the reload counter.
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: undefined, loading: false });
      },
      (error: Error) => {
        if (!controller.signal.aborted) setState((s) => ({ data: s.data, error, loading: false }));
      },
    );
    return () => controller.abort();
  }, [...deps, tick]);

  return { ...state, reload: () => setTick((t) => t + 1) };
}
