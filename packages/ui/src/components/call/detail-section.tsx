import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/** A titled, collapsible part of the call detail; `actions` sit at the right of its title. */
export function DetailSection({
  title,
  children,
  open = true,
  actions,
}: {
  title: string;
  children: ComponentChildren;
  open?: boolean;
  actions?: ComponentChildren;
}) {
  const [isOpen, setOpen] = useState(open);
  return (
    <section class="detail-section" data-section={title.toLowerCase()}>
      <h3 class="section-head">
        <button type="button" class="section-toggle" aria-expanded={isOpen} onClick={() => setOpen(!isOpen)}>
          <span class="caret" aria-hidden="true">
            {isOpen ? '▾' : '▸'}
          </span>
          {title}
        </button>
        {isOpen && actions}
      </h3>
      {isOpen && children}
    </section>
  );
}
