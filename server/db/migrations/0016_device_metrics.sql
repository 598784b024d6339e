-- Device performance history (issue 16 item 3): the cpuPercent/ramPercent/diskPercent of heartbeats as a time
-- series, next to the latest values kept on `devices`. Two resolutions, both written as samples arrive (a running
-- sum and count per metric, so a bucket's point is the average of what fell into it and a heartbeat that leaves a
-- metric out does not drag it towards zero):
--   minute: at most one point per device per minute, kept 24 hours (the 24h chart);
--   hour:   at most one point per device per hour, kept 30 days (the 7d and 30d charts).
-- A device therefore holds at most 24*60 + 30*24 rows (plus the bucket being pruned); the device-metrics job
-- deletes what aged out. Timestamps are epoch milliseconds: the rows exist to be charted as [epochMs, value].

CREATE TABLE device_metric_points (
  device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  resolution TEXT NOT NULL CHECK (resolution IN ('minute', 'hour')),
  bucket_ms INTEGER NOT NULL,
  cpu_sum REAL NOT NULL DEFAULT 0,
  cpu_count INTEGER NOT NULL DEFAULT 0,
  ram_sum REAL NOT NULL DEFAULT 0,
  ram_count INTEGER NOT NULL DEFAULT 0,
  disk_sum REAL NOT NULL DEFAULT 0,
  disk_count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (device_id, resolution, bucket_ms)
) STRICT, WITHOUT ROWID;
-- Pruning walks by age across all devices.
CREATE INDEX device_metric_points_age ON device_metric_points (resolution, bucket_ms);
