import { formatDateTime } from '../../lib/format';
import { compactTime } from '../../lib/format';
import { percentTone, type Tone } from './format';

// Small pieces shared by the device detail tabs.

export function MetricBar({
  label,
  value,
  testId,
}: {
  label: string;
  value: number | null;
  testId?: string;
}) {
  const pct = value === null ? null : Math.max(0, Math.min(100, value));
  return (
    <div className="dv-meter" data-testid={testId}>
      <div className="dv-meter-head">
        <span className="muted">{label}</span>
        <span className={`dv-meter-num tone-${percentTone(pct)}`}>
          {pct === null ? '—' : `${pct.toFixed(1)}%`}
        </span>
      </div>
      <div className="dv-meter-track">
        {pct !== null ? (
          <div className={`dv-meter-fill tone-${percentTone(pct)}`} style={{ width: `${pct}%` }} />
        ) : null}
      </div>
    </div>
  );
}

const LEVEL_TONE: Record<string, Tone> = {
  debug: 'muted',
  verbose: 'muted',
  info: 'ok',
  information: 'ok',
  warn: 'warn',
  warning: 'warn',
  error: 'bad',
  critical: 'bad',
};

export function LevelBadge({ level, testId }: { level: string; testId?: string }) {
  const tone = LEVEL_TONE[level] ?? 'muted';
  return (
    <span className={`dv-level lvl-${tone}${level === 'critical' ? ' critical' : ''}`} data-testid={testId}>
      {level}
    </span>
  );
}

export function JsonBlock({ value }: { value: unknown }) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && Object.keys(value).length === 0) return null;
  return <pre className="ui-pre dv-pre">{JSON.stringify(value, null, 2)}</pre>;
}

export function Stamp({ iso }: { iso: string | null | undefined }) {
  return (
    <time className="dv-stamp mono" dateTime={iso ?? undefined} title={iso ? formatDateTime(iso) : undefined}>
      {compactTime(iso)}
    </time>
  );
}

/**
 * Indents an XML document for reading (event records arrive as one line). Text-only elements stay on one line;
 * anything that does not look like XML is returned unchanged.
 */
export function prettyXml(xml: string): string {
  const tokens = xml.match(/<[^>]+>|[^<]+/g);
  if (!tokens || !xml.trimStart().startsWith('<')) return xml;
  const lines: string[] = [];
  let depth = 0;
  let inline = false;
  for (const raw of tokens) {
    const token = raw.trim();
    if (!token) continue;
    const pad = '  '.repeat(Math.max(0, depth));
    if (token.startsWith('</')) {
      depth -= 1;
      if (inline) lines[lines.length - 1] += token;
      else lines.push(`${'  '.repeat(Math.max(0, depth))}${token}`);
      inline = false;
    } else if (token.startsWith('<')) {
      lines.push(`${pad}${token}`);
      const opens = !token.endsWith('/>') && !token.startsWith('<?') && !token.startsWith('<!');
      if (opens) depth += 1;
      inline = false;
    } else {
      const last = lines.length - 1;
      const prev = lines[last];
      if (prev !== undefined && prev.trimStart().startsWith('<') && !prev.trimStart().startsWith('</')) {
        lines[last] = `${prev}${token}`;
        inline = true;
      } else {
        lines.push(`${pad}${token}`);
      }
    }
  }
  return lines.join('\n');
}
