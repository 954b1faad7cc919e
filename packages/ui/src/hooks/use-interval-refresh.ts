import { useEffect } from 'preact/hooks';

/**
 * Calls `refresh` every `intervalMs` while `active` and the tab is visible.
 * The read API has no push channel, so live views poll; the timer is one
 * setTimeout re-armed after each run, never stacking up behind a slow server.
 */
export function useIntervalRefresh(
  active: boolean,
  intervalMs: number,
  refresh: () => void,
  key: unknown,
): void {
  // Re-armed whenever the loaded data (key) changes, i.e. after each refresh.
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      timer = setTimeout(() => {
        // A hidden tab skips its turn rather than loading data nobody sees.
        if (document.visibilityState === 'visible') refresh();
        else arm();
      }, intervalMs);
    };
    arm();
    return () => clearTimeout(timer);
  }, [active, intervalMs, key]);
}
