import type { ComponentChildren } from 'preact';

/** One step of a page's trail: a label and, except for the last, where it leads. */
export interface Crumb {
  label: ComponentChildren;
  href?: string;
}

/**
 * The frame of every view: a head with the title (or a trail of crumbs
 * ending in it), optional actions at its right, then the view's content.
 * `name` becomes the view's class (`<name>-view`), which tests and styles
 * address.
 */
export function Page({
  name,
  title,
  crumbs = [],
  actions,
  children,
}: {
  name: string;
  title: ComponentChildren;
  crumbs?: readonly Crumb[];
  actions?: ComponentChildren;
  children?: ComponentChildren;
}) {
  return (
    <div class={`view ${name}-view`}>
      <div class="view-head">
        <h1>
          {crumbs.map((c, i) => (
            <span key={i} class="crumb">
              {c.href ? <a href={c.href}>{c.label}</a> : c.label} /{' '}
            </span>
          ))}
          {title}
        </h1>
        {actions}
      </div>
      {children}
    </div>
  );
}
