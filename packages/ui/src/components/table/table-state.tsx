import type { ComponentChildren } from 'preact';

/**
 * The rows a table body shows before it has data or when it has none: while
 * loading, `placeholders` fixed-height rows (so nothing jumps when data
 * arrives); loaded and empty, one row saying so (`children`: why, and what
 * to do). Renders nothing once there are rows.
 */
export function TableState({
  loading,
  empty,
  columns,
  placeholders = 6,
  children,
}: {
  loading: boolean;
  empty: boolean;
  columns: number;
  placeholders?: number;
  children: ComponentChildren;
}) {
  if (loading) {
    return (
      <>
        {Array.from({ length: placeholders }, (_, i) => (
          <tr key={i} class="placeholder-row">
            <td colSpan={columns}>
              <span class="skeleton" />
            </td>
          </tr>
        ))}
      </>
    );
  }
  if (!empty) return null;
  return (
    <tr class="empty-row">
      <td colSpan={columns}>{children}</td>
    </tr>
  );
}
