// Preloaded into the benchmarked server process (`NODE_OPTIONS=--import=<this file>`, test/bench/scale.ts) when
// LOOP_PROBE_PORT is set: it watches the server's own event loop with perf_hooks.monitorEventLoopDelay and answers
// on 127.0.0.1:LOOP_PROBE_PORT, so the benchmark reads the loop from inside without the product carrying a hook.
//   GET /reset -> starts a new measuring window
//   GET /read  -> {p50, p99, max, mean, samples} of the window so far, in milliseconds
// Plain JavaScript: it loads before any TypeScript loader is registered.
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const port = Number(process.env.LOOP_PROBE_PORT);
if (Number.isInteger(port) && port > 0) {
  // The histogram records the time between two firings of a 10 ms sampling timer, so an idle loop reads about
  // 10 ms: the delay is what exceeds the timer's own interval (how late it fired), as the probe reports it.
  const resolutionMs = 10;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  const ms = (ns) => Math.max(0, Math.round(ns / 1e4) / 100 - resolutionMs);
  const probe = createServer((req, res) => {
    if (req.url === '/reset') histogram.reset();
    const body =
      req.url === '/read'
        ? {
            p50: ms(histogram.percentile(50)),
            p99: ms(histogram.percentile(99)),
            max: ms(histogram.max),
            mean: ms(histogram.mean),
            samples: histogram.count,
          }
        : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  probe.listen(port, '127.0.0.1');
  // The probe never keeps the server alive on its own.
  probe.unref();
}
