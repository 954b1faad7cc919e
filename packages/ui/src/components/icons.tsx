/**
 * Icons drawn as inline SVG, so they ship with the UI and render the same on
 * every machine (an emoji needs a colour-emoji font, which many Linux
 * desktops and CI images lack: there the thumbs were empty boxes). Outline
 * paths from Lucide (ISC licence); colour follows the text (`currentColor`).
 * Decorative: the button or text beside an icon carries its name.
 */
function Icon({ paths, size = 16 }: { paths: readonly string[]; size?: number }) {
  return (
    <svg
      class="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}

export function ThumbsUpIcon({ size }: { size?: number }) {
  return (
    <Icon
      size={size}
      paths={[
        'M7 10v12',
        'M15 5.88 14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88Z',
      ]}
    />
  );
}

export function ThumbsDownIcon({ size }: { size?: number }) {
  return (
    <Icon
      size={size}
      paths={[
        'M17 14V2',
        'M9 18.12 10 14H4.17a2 2 0 0 1-1.92-2.56l2.33-8A2 2 0 0 1 6.5 2H20a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-2.76a2 2 0 0 0-1.79 1.11L12 22a3.13 3.13 0 0 1-3-3.88Z',
      ]}
    />
  );
}

export function WrenchIcon({ size }: { size?: number }) {
  return (
    <Icon
      size={size}
      paths={[
        'M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.77-3.77a6 6 0 0 1-7.94 7.94l-6.91 6.91a2.12 2.12 0 0 1-3-3l6.91-6.91a6 6 0 0 1 7.94-7.94l-3.76 3.76z',
      ]}
    />
  );
}
