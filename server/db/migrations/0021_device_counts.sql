-- Live device counts per organization (issue 18): enrollment checks the organization's and the partner's device
-- caps, and counting a 25,000-device partner's rows for every enrollment made a storm quadratic. The counts are
-- kept in step by triggers on every write to devices, so no code path can forget them; "live" is every status
-- but decommissioned, as the caps count (spec 1).
CREATE TABLE org_device_counts (
  org_id TEXT PRIMARY KEY,
  live INTEGER NOT NULL CHECK (live >= 0)
) STRICT, WITHOUT ROWID;

INSERT INTO org_device_counts (org_id, live)
  SELECT org_id, count(*) FROM devices WHERE status <> 'decommissioned' GROUP BY org_id;

CREATE TRIGGER devices_count_insert AFTER INSERT ON devices WHEN new.status <> 'decommissioned'
BEGIN
  INSERT INTO org_device_counts (org_id, live) VALUES (new.org_id, 1)
    ON CONFLICT (org_id) DO UPDATE SET live = live + 1;
END;

CREATE TRIGGER devices_count_delete AFTER DELETE ON devices WHEN old.status <> 'decommissioned'
BEGIN
  UPDATE org_device_counts SET live = live - 1 WHERE org_id = old.org_id;
END;

-- Heartbeats set status on every beat; the WHEN keeps the trigger body off that path unless liveness or the
-- organization really changed.
CREATE TRIGGER devices_count_update AFTER UPDATE OF status, org_id ON devices
  WHEN (old.status <> 'decommissioned') <> (new.status <> 'decommissioned') OR old.org_id <> new.org_id
BEGIN
  UPDATE org_device_counts SET live = live - 1
    WHERE org_id = old.org_id AND old.status <> 'decommissioned';
  INSERT INTO org_device_counts (org_id, live)
    SELECT new.org_id, 1 WHERE new.status <> 'decommissioned'
    ON CONFLICT (org_id) DO UPDATE SET live = live + 1;
END;
