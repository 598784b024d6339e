import { useState } from 'react';
import type { DeviceMetricPoint, MetricsRange } from '../../../../server/contract';
import { CHART_COLORS, EmptyState, ListStates, Segmented, TimeSeriesChart, type TimeSeries } from '../../ui';
import { Card } from '../../ui/basics';
import { useDeviceMetrics } from './api';
import './device-history.css';

// /devices/:id?tab=performance — CPU, RAM and disk over the last day (per minute), week or month (hourly
// averages), from the heartbeats' metrics (GET /devices/:id/metrics).

const RANGES: ReadonlyArray<readonly [MetricsRange, string]> = [
  ['24h', '24 hours'],
  ['7d', '7 days'],
  ['30d', '30 days'],
];

type MetricKey = 'cpuPercent' | 'ramPercent' | 'diskPercent';

const CHARTS: Array<{ key: MetricKey; title: string; color: string }> = [
  { key: 'cpuPercent', title: 'CPU', color: CHART_COLORS.accent },
  { key: 'ramPercent', title: 'Memory', color: CHART_COLORS.info },
  { key: 'diskPercent', title: 'Disk', color: CHART_COLORS.warn },
];

/** One metric's points; buckets where the agent did not report it are left out. */
function seriesOf(points: DeviceMetricPoint[], key: MetricKey): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const p of points) {
    const value = p[key];
    if (value !== null) out.push([p.at, Math.round(value * 10) / 10]);
  }
  return out;
}

function MetricCard({
  title,
  color,
  points,
}: {
  title: string;
  color: string;
  points: Array<[number, number]>;
}) {
  const latest = points.at(-1)?.[1];
  const peak = points.reduce((max, [, v]) => Math.max(max, v), 0);
  const series: TimeSeries[] = [{ label: title, points, color }];
  return (
    <Card
      title={title}
      className="dh-metric"
      testId={`device-metric-${title.toLowerCase()}`}
      actions={
        points.length ? (
          <span className="dh-metric-now">
            <span>
              Latest <strong>{latest}%</strong>
            </span>
            <span>
              Peak <strong>{peak}%</strong>
            </span>
          </span>
        ) : null
      }
    >
      {points.length ? (
        <TimeSeriesChart
          series={series}
          unit="%"
          yMax={100}
          height={160}
          ariaLabel={`${title} usage over time`}
        />
      ) : (
        <p className="muted dh-metric-none">Not reported in this period.</p>
      )}
    </Card>
  );
}

const METRICS_FORBIDDEN = {
  title: 'Metrics are not available to you',
  text: 'Reading devices needs devices:read.',
};

export function PerformanceTab({ deviceId }: { deviceId: string }) {
  const [range, setRange] = useState<MetricsRange>('24h');
  const metrics = useDeviceMetrics(deviceId, range);
  const points = metrics.data?.points;

  return (
    <div className="dh-performance" data-testid="device-performance">
      <div className="dh-toolbar">
        <Segmented
          label="Period"
          options={RANGES}
          value={range}
          onChange={setRange}
          testId="metrics-range"
          small
        />
        <span className="muted dh-hint">
          {range === '24h' ? 'One point per minute' : 'Hourly averages'} of what the agent reports with each
          heartbeat
        </span>
      </div>
      <ListStates
        of={metrics}
        loading="Loading metrics…"
        forbidden={METRICS_FORBIDDEN}
        empty={
          points?.length === 0 ? (
            <EmptyState icon="devices" title="No metrics in this period" testId="device-metrics-empty">
              CPU, memory and disk appear here once the agent has sent heartbeats with metrics.
            </EmptyState>
          ) : null
        }
      >
        <div className="dh-metric-grid">
          {CHARTS.map((c) => (
            <MetricCard key={c.key} title={c.title} color={c.color} points={seriesOf(points ?? [], c.key)} />
          ))}
        </div>
      </ListStates>
    </div>
  );
}
