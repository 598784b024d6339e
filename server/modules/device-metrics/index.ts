// The device-metrics module's public surface (issue 16 item 3): heartbeats buffer their samples here, the job
// flushes and prunes. Routes are mounted by server/index.ts from routes.ts.
export { bufferMetricSample, flushMetricSamples, metricSamplesPending } from './buffer';
export { pruneDeviceMetrics } from './service';
