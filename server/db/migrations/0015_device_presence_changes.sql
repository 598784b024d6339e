-- The Overview's 24-hour presence chart (issue 16): every time a device goes online or offline (or is enrolled),
-- one row. Counting online devices at any moment for any set of devices (a technician limited to sites or device
-- groups included) is then a sweep over these rows; the device's state before its first row is the opposite of
-- that row, and a device without rows stayed as it is now. Kept 7 days (server/jobs/presence-history.ts).
CREATE TABLE device_presence_changes (
  device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  online INTEGER NOT NULL CHECK (online IN (0, 1)),
  at TEXT NOT NULL
) STRICT;
CREATE INDEX device_presence_changes_at ON device_presence_changes (at);
CREATE INDEX device_presence_changes_device ON device_presence_changes (device_id, at);
