import { useEffect, useRef, useState } from 'preact/hooks';

/** The state of data loaded for a view. `data` keeps the last value while reloading, so nothing flashes. */
export interface Load<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** Counts finished loads (success or failure): a key that changes after every load. */
  settled: number;
  /** Loads again without clearing what is shown (for live refresh). */
  reload: () => void;
}

/**
 * Runs `load` whenever `deps` change, aborting the previous run so a slow
 * answer to an old filter never overwrites a newer one.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Load<T> {
  const [state, setState] = useState<Omit<Load<T>, 'reload'>>({
    data: undefined,
    error: undefined,
    loading: true,
    settled: 0,
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
        if (!controller.signal.aborted)
          setState((s) => ({ data, error: undefined, loading: false, settled: s.settled + 1 }));
      },
      (error: Error) => {
        if (!controller.signal.aborted) {
          setState((s) => ({ data: s.data, error, loading: false, settled: s.settled + 1 }));
        }
      },
    );
    return () => controller.abort();
  }, [...deps, tick]);

  return { ...state, reload: () => setTick((t) => t + 1) };
}
