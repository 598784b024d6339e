-- Access reviews (spec 1 "Access review", its state table, and /access-reviews). A review belongs to one partner
-- (its partner users) or one organization (its organization users). Its items are a snapshot taken at creation:
-- who held which role and what that role allowed then, so a completed review stays the record of what was
-- reviewed even after roles change or are deleted (role_id is kept without a foreign key for that reason).

CREATE TABLE access_reviews (
  id TEXT PRIMARY KEY,
  partner_id TEXT REFERENCES partners(id),
  org_id TEXT REFERENCES organizations(id),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  description TEXT,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'in_progress', 'completed')),
  reviewer_id TEXT NOT NULL REFERENCES users(id),
  due_date TEXT,
  -- Beyond the spec: when the "due in two days" email went to the reviewer. Set before the email is queued, so a
  -- restart never sends it twice (the reminder job reads only rows where it is null).
  reminder_sent_at TEXT,
  -- Set with completed_at: how many people the review removed.
  revoked_count INTEGER,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  completed_at TEXT,
  CHECK ((partner_id IS NULL) <> (org_id IS NULL)),
  CHECK ((status = 'completed') = (completed_at IS NOT NULL))
) STRICT;
CREATE INDEX access_reviews_partner ON access_reviews (partner_id, created_at) WHERE partner_id IS NOT NULL;
CREATE INDEX access_reviews_org ON access_reviews (org_id, created_at) WHERE org_id IS NOT NULL;
CREATE INDEX access_reviews_reminder_due ON access_reviews (due_date)
  WHERE reminder_sent_at IS NULL AND completed_at IS NULL AND due_date IS NOT NULL;

CREATE TABLE access_review_items (
  id TEXT PRIMARY KEY,
  review_id TEXT NOT NULL REFERENCES access_reviews(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role_id TEXT NOT NULL,
  role_name TEXT NOT NULL,
  -- JSON array of the role chain's `resource:action` grants when the review was created.
  permissions TEXT NOT NULL CHECK (json_valid(permissions)),
  decision TEXT NOT NULL DEFAULT 'pending' CHECK (decision IN ('pending', 'approved', 'revoked')),
  notes TEXT CHECK (notes IS NULL OR length(notes) <= 2000),
  reviewed_at TEXT,
  reviewed_by TEXT REFERENCES users(id),
  created_at TEXT NOT NULL,
  UNIQUE (review_id, user_id)
) STRICT;
CREATE INDEX access_review_items_user ON access_review_items (user_id);
