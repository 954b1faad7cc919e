import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  callLatencyMs,
  callTokens,
  plainOpName,
  formatCount,
  formatDuration,
  barPlacement,
  isModelCall,
  llmFacts,
  type TraceNode,
  type TraceTree,
  visibleNodes,
  scrollToReveal,
  virtualWindow,
} from '../model/index.js';

/** Fixed row height: virtualization places rows by index × height. */
export const ROW_PX = 28;

export interface TraceTreeViewProps {
  tree: TraceTree;
  expanded: ReadonlySet<string>;
  selectedId: string | undefined;
  nowMs: number;
  onSelect: (id: string) => void;
  onToggle: (id: string, open: boolean) => void;
}

/**
 * The call tree with a timing waterfall, virtualized: only rows in view (plus
 * a little overscan) are in the DOM, so a 5,000-call trace scrolls like a
 * 50-call one. Keyboard: ↑/↓ move, → expands or enters, ← collapses or goes
 * to the parent, Enter toggles, Home/End jump.
 */
export function TraceTreeView({ tree, expanded, selectedId, nowMs, onSelect, onToggle }: TraceTreeViewProps) {
  const nodes = useMemo(() => visibleNodes(tree, expanded), [tree, expanded]);
  const indexById = useMemo(() => new Map(nodes.map((n, i) => [n.call.id, i])), [nodes]);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const frame = useRef(0);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    setViewport(el.clientHeight);
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const selectedIndex = selectedId === undefined ? -1 : (indexById.get(selectedId) ?? -1);
  useEffect(() => {
    const el = scroller.current;
    if (!el || selectedIndex < 0) return;
    const top = scrollToReveal(selectedIndex, ROW_PX, el.scrollTop, el.clientHeight);
    if (top !== undefined) el.scrollTop = top;
  }, [selectedIndex]);

  const onScroll = () => {
    // One state update per animation frame however fast the wheel spins.
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      if (scroller.current) setScrollTop(scroller.current.scrollTop);
    });
  };
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const onKeyDown = (event: KeyboardEvent) => {
    const index = Math.max(0, selectedIndex);
    const node = nodes[index];
    if (!node) return;
    const go = (i: number) => {
      const target = nodes[Math.max(0, Math.min(nodes.length - 1, i))];
      if (target) onSelect(target.call.id);
    };
    const isOpen = expanded.has(node.call.id);
    switch (event.key) {
      case 'ArrowDown':
        go(Math.max(0, selectedIndex + 1));
        break;
      case 'ArrowUp':
        go(index - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(nodes.length - 1);
        break;
      case 'PageDown':
        go(index + Math.floor(viewport / ROW_PX));
        break;
      case 'PageUp':
        go(index - Math.floor(viewport / ROW_PX));
        break;
      case 'ArrowRight':
        if (node.children.length === 0) break;
        if (isOpen) go(index + 1);
        else onToggle(node.call.id, true);
        break;
      case 'ArrowLeft':
        if (isOpen) onToggle(node.call.id, false);
        else if (node.parent) onSelect(node.parent.call.id);
        break;
      case 'Enter':
      case ' ':
        if (selectedIndex < 0) go(0);
        else if (node.children.length > 0) onToggle(node.call.id, !isOpen);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const win = virtualWindow(nodes.length, ROW_PX, scrollTop, viewport);
  const slice = nodes.slice(win.start, win.end);
  return (
    <div class="trace-tree">
      <div class="trace-tree-head" aria-hidden="true">
        <span class="tt-name">Call</span>
        <span class="tt-num">Tokens</span>
        <span class="tt-num">Latency</span>
        <span class="tt-bar">Timeline · {formatDuration(tree.endMs - tree.startMs)}</span>
      </div>
      <div
        ref={scroller}
        class="trace-tree-scroll"
        role="tree"
        aria-label="Call tree"
        tabIndex={0}
        aria-activedescendant={selectedId && selectedIndex >= 0 ? `node-${selectedId}` : undefined}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
        data-row-count={nodes.length}
      >
        <div class="trace-tree-spacer" style={{ height: `${win.totalPx}px` }}>
          <div class="trace-tree-rows" style={{ transform: `translateY(${win.offsetPx}px)` }}>
            {slice.map((node) => (
              <TraceRow
                key={node.call.id}
                node={node}
                tree={tree}
                nowMs={nowMs}
                open={expanded.has(node.call.id)}
                selected={node.call.id === selectedId}
                onSelect={onSelect}
                onToggle={onToggle}
              />
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}

function TraceRow({
  node,
  tree,
  nowMs,
  open,
  selected,
  onSelect,
  onToggle,
}: {
  node: TraceNode;
  tree: TraceTree;
  nowMs: number;
  open: boolean;
  selected: boolean;
  onSelect: (id: string) => void;
  onToggle: (id: string, open: boolean) => void;
}) {
  const { call } = node;
  const bar = barPlacement(tree, call, nowMs);
  const hasChildren = node.children.length > 0;
  const name = plainOpName(call.opName);
  const modelCall = isModelCall(node);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled by the tree (aria-activedescendant), not per row.
    <div
      id={`node-${call.id}`}
      class={`tt-row${selected ? ' selected' : ''}`}
      role="treeitem"
      tabIndex={-1}
      aria-level={node.depth + 1}
      aria-expanded={hasChildren ? open : undefined}
      aria-selected={selected}
      data-call-id={call.id}
      data-op={name}
      onClick={() => onSelect(call.id)}
    >
      <span class="tt-name" style={{ paddingLeft: `${Math.min(node.depth, 40) * 14 + 4}px` }}>
        {hasChildren ? (
          <button
            type="button"
            class="tt-toggle"
            tabIndex={-1}
            aria-label={open ? `Collapse ${name}` : `Expand ${name}`}
            onClick={(e) => {
              e.stopPropagation();
              onToggle(call.id, !open);
            }}
          >
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span class="tt-toggle-space" />
        )}
        <span class={`dot status-${call.status}`} title={call.status} />
        <span class="tt-op">{name}</span>
        {modelCall && <span class="tt-model">{llmFacts(call).models.join(', ')}</span>}
        {call.displayName && call.displayName !== name && <span class="tt-display">{call.displayName}</span>}
        {hasChildren && <span class="tt-count">{node.children.length}</span>}
      </span>
      <span class="tt-num">{formatCount(callTokens(call))}</span>
      <span class="tt-num">{formatDuration(callLatencyMs(call))}</span>
      <span class="tt-bar">
        <span
          class={`bar status-${call.status}`}
          style={{ left: `${bar.left * 100}%`, width: `max(2px, ${bar.width * 100}%)` }}
        />
      </span>
    </div>
  );
}
