import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Keyboard navigation of a table's rows with a roving tabindex: one row is
 * in the tab order; arrows, Home and End move focus; Enter opens the row.
 * Returns props to spread on each row and the container.
 */
export function useRowKeys(count: number, onOpen: (index: number) => void) {
  const [active, setActive] = useState(0);
  const rows = useRef<(HTMLElement | null)[]>([]);
  const moved = useRef(false);
  const current = Math.min(active, Math.max(0, count - 1));

  useEffect(() => {
    // Focus follows the keyboard only, never a data refresh.
    if (moved.current) rows.current[current]?.focus();
    moved.current = false;
  }, [current]);

  const move = (index: number) => {
    moved.current = true;
    setActive(Math.max(0, Math.min(count - 1, index)));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    switch (event.key) {
      case 'ArrowDown':
        move(current + 1);
        break;
      case 'ArrowUp':
        move(current - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(count - 1);
        break;
      case 'Enter':
        onOpen(current);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const rowProps = (index: number) => ({
    tabIndex: index === current ? 0 : -1,
    ref: (el: HTMLElement | null) => {
      rows.current[index] = el;
    },
    onFocus: () => setActive(index),
    onKeyDown,
  });

  return { rowProps };
}
