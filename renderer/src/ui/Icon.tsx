// A small set of stroke icons drawn for the console (24-unit grid, currentColor).

import type { ReactElement } from 'react';

/** One stroke of an icon: a path's `d` (optionally with its own stroke width), a rounded rectangle or a circle. */
type Shape =
  | string
  | { d: string; width: number }
  | { rect: [x: number, y: number, width: number, height: number, rx: number] }
  | { circle: [cx: number, cy: number, r: number] };

const paths = {
  home: ['M3.5 10.5 12 3.5l8.5 7', 'M5.5 9v11h13V9', 'M10 20v-5.5h4V20'],
  approvals: [
    'M12 3 19.5 6v5.5c0 4.4-3.1 8.3-7.5 9.5-4.4-1.2-7.5-5.1-7.5-9.5V6z',
    'm8.8 12.2 2.2 2.2 4.3-4.6',
  ],
  devices: [{ rect: [3, 4.5, 18, 12, 1.5] }, 'M8.5 20h7M12 16.5V20'],
  audit: ['M9 6.5h11M9 12h11M9 17.5h11', { d: 'M4.5 6.5h.01M4.5 12h.01M4.5 17.5h.01', width: 2.6 }],
  webhooks: ['M13.5 3 5 13.5h6l-1 7.5 8.5-10.5h-6z'],
  reviews: [{ rect: [5, 4.5, 14, 16.5, 1.5] }, 'M9 4.5V3h6v1.5', 'm9 13 2 2 4-4.2'],
  tenants: [
    'M4.5 20.5v-15a1 1 0 0 1 1-1h8a1 1 0 0 1 1 1v15',
    'M14.5 9.5h4a1 1 0 0 1 1 1v10',
    'M3 20.5h18M8 8.5h3M8 12h3M8 15.5h3',
  ],
  users: [
    { circle: [9, 8.5, 3.2] },
    'M3 19.5a6 6 0 0 1 12 0',
    'M15.5 5.5a3.2 3.2 0 0 1 0 6.2M17.5 14.2a6 6 0 0 1 3.5 5.3',
  ],
  keys: [{ circle: [8, 15.5, 4] }, 'm10.8 12.7 8.7-8.7M16.5 7l2.5 2.5M14.5 9l1.8 1.8'],
  settings: ['M4 7h9M17 7h3M4 17h3M11 17h9', { circle: [15, 7, 2] }, { circle: [9, 17, 2] }],
  profile: [{ circle: [12, 12, 8.5] }, { circle: [12, 10, 3] }, 'M6.7 18.3a6.2 6.2 0 0 1 10.6 0'],
  signOut: ['M10 4.5H6.5a1.5 1.5 0 0 0-1.5 1.5v12a1.5 1.5 0 0 0 1.5 1.5H10', 'm15.5 16 4-4-4-4M19.5 12H9.5'],
  copy: [
    { rect: [8.5, 8.5, 11, 11, 1.5] },
    'M15.5 8.5V6a1.5 1.5 0 0 0-1.5-1.5H6A1.5 1.5 0 0 0 4.5 6v8A1.5 1.5 0 0 0 6 15.5h2.5',
  ],
  download: ['M12 4v11M7.5 10.5 12 15l4.5-4.5M5 19.5h14'],
  upload: ['M12 20V9M7.5 13.5 12 9l4.5 4.5M5 4.5h14'],
  close: ['M6 6l12 12M18 6 6 18'],
  plus: ['M12 5v14M5 12h14'],
  trash: ['M4.5 7h15M9.5 7V4.5h5V7', 'M6.5 7l1 13h9l1-13'],
  edit: ['M4.5 19.5h4l10-10-4-4-10 10z', 'm13 7 4 4'],
  search: [{ circle: [10.5, 10.5, 6] }, 'm15 15 5 5'],
  chevron: ['m9.5 6 6 6-6 6'],
  mail: [{ rect: [3.5, 5.5, 17, 13, 1.5] }, 'm4 7 8 6 8-6'],
  phone: [{ rect: [7, 3, 10, 18, 2] }, 'M11 17.5h2'],
  check: ['m5 12.5 4.5 4.5L19 7.5'],
  alert: ['M12 4 2.8 19.5h18.4z', 'M12 10v4.5M12 17.2h.01'],
  lock: [{ rect: [5, 10.5, 14, 10, 1.5] }, 'M8 10.5V7.5a4 4 0 0 1 8 0v3'],
  activity: ['M3 12h4l2.5-6.5 5 13L17 12h4'],
  server: [
    { rect: [4, 4, 16, 7, 1.5] },
    { rect: [4, 13, 16, 7, 1.5] },
    { d: 'M8 7.5h.01M8 16.5h.01', width: 2.6 },
  ],
  clock: [{ circle: [12, 12, 8.5] }, 'M12 7.5V12l3 2'],
  refresh: ['M19.5 12a7.5 7.5 0 1 1-2.2-5.3', 'M19.5 4.5v4h-4'],
  arrowLeft: ['M19 12H5M11 6l-6 6 6 6'],
} satisfies Record<string, Shape[]>;

function draw(shape: Shape, key: number): ReactElement {
  if (typeof shape === 'string') return <path key={key} d={shape} />;
  if ('d' in shape) return <path key={key} d={shape.d} strokeWidth={shape.width} />;
  if ('rect' in shape) {
    const [x, y, width, height, rx] = shape.rect;
    return <rect key={key} x={x} y={y} width={width} height={height} rx={rx} />;
  }
  const [cx, cy, r] = shape.circle;
  return <circle key={key} cx={cx} cy={cy} r={r} />;
}

export type IconName = keyof typeof paths;

export function Icon({ name, size = 16, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.7"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {paths[name].map(draw)}
    </svg>
  );
}

/** The Gatehouse mark: an arched gateway on a threshold, inside a rounded square. */
export function Logo({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" className="logo">
      <rect x="1" y="1" width="30" height="30" rx="8" fill="var(--accent-strong)" />
      <path d="M10.5 23.5V15a5.5 5.5 0 0 1 11 0v8.5" fill="none" stroke="var(--logo-ink)" strokeWidth="2.8" />
      <path d="M7 24.5h18" stroke="var(--logo-ink)" strokeWidth="2.8" strokeLinecap="round" />
      <circle cx="16" cy="17.5" r="1.6" fill="var(--logo-ink)" />
    </svg>
  );
}
