-- The ledger (G-10.1): sessions, asks and the grants their answers give.
--
-- Times are TEXT in store.FormatTime's fixed-width UTC form, so that text
-- order is time order and the file stays readable with the sqlite3 shell.

CREATE TABLE sessions (
	id         TEXT PRIMARY KEY,
	agent_id   TEXT NOT NULL DEFAULT '',
	profile    TEXT NOT NULL DEFAULT '',
	cwd        TEXT NOT NULL DEFAULT '/',
	workspace  TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL
);

-- asks.session_id deliberately has no foreign key to sessions: a session
-- living only in memory (a Go host that never persists it) still asks.
CREATE TABLE asks (
	id          TEXT PRIMARY KEY
	            CHECK (length(id) = 12 AND id NOT GLOB '*[^0-9a-f]*'),
	session_id  TEXT NOT NULL,
	agent_id    TEXT NOT NULL DEFAULT '',
	command     TEXT NOT NULL DEFAULT '',
	argv        TEXT NOT NULL DEFAULT '[]', -- JSON array of strings
	cwd         TEXT NOT NULL DEFAULT '',
	paths       TEXT NOT NULL DEFAULT '[]', -- JSON array of strings
	reason      TEXT NOT NULL DEFAULT '',
	rule        TEXT NOT NULL DEFAULT '',
	policy      TEXT NOT NULL DEFAULT '',
	line        TEXT NOT NULL DEFAULT '',
	place       TEXT NOT NULL DEFAULT '',
	-- What an allow with scope session covers (G-9.5), chosen by the gate.
	grant_key   TEXT NOT NULL DEFAULT '',
	outcome     TEXT CHECK (outcome IS NULL OR outcome IN ('allow', 'deny')),
	scope       TEXT NOT NULL DEFAULT '' CHECK (scope IN ('', 'once', 'session')),
	note        TEXT NOT NULL DEFAULT '',
	created_at  TEXT NOT NULL,
	answered_at TEXT,
	answered_by TEXT NOT NULL DEFAULT '',
	-- A pending ask taken out of the queue without an answer ("cancelled").
	closed_reason TEXT NOT NULL DEFAULT '',
	closed_at     TEXT,
	-- Ledger-wide change counter: every write to a row sets it to one more
	-- than the largest so far, so a reader in any process can ask "what
	-- changed since N" in commit order.
	rev         INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX asks_by_session ON asks (session_id, created_at);
CREATE INDEX asks_by_rev ON asks (rev);
-- One unanswered record per question (G-9.8: a retry raises no duplicate),
-- enforced for every process that writes the file.
CREATE UNIQUE INDEX asks_one_open_question
	ON asks (session_id, line, place, grant_key) WHERE outcome IS NULL;

CREATE TABLE grants (
	id         INTEGER PRIMARY KEY,
	session_id TEXT NOT NULL,
	-- once: allow exactly (session, line, place), spent by the retry;
	-- session: allow (session, grant_key) for good, never spent;
	-- deny: a one-shot refusal of (session, line, place), spent by the retry.
	kind       TEXT NOT NULL CHECK (kind IN ('once', 'session', 'deny')),
	grant_key  TEXT NOT NULL DEFAULT '',
	line       TEXT NOT NULL DEFAULT '',
	place      TEXT NOT NULL DEFAULT '',
	ask_id     TEXT REFERENCES asks (id),
	state      TEXT NOT NULL DEFAULT 'available' CHECK (state IN ('available', 'spent')),
	created_at TEXT NOT NULL,
	spent_at   TEXT
);

CREATE INDEX grants_by_line ON grants (session_id, line, place) WHERE state = 'available';
CREATE INDEX grants_by_key ON grants (session_id, grant_key) WHERE kind = 'session';
