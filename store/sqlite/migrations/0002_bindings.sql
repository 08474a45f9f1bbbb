-- Answers bound to what the human saw (G-9.5, G-4.10) and grants claimed
-- in the ledger itself, so that one claim holds across processes (G-9.7).

-- Every ask rule a question names, as JSON objects {reason, rule, policy,
-- paths, key}; key is what an allow for session of that rule covers.
-- grant_key stays: the rules' keys, one per line, in order.
ALTER TABLE asks ADD COLUMN rules TEXT NOT NULL DEFAULT '[]';
-- Digest of the command, argv, cwd, resolved paths and rules the record
-- shows: an answer settles exactly that.
ALTER TABLE asks ADD COLUMN facts TEXT NOT NULL DEFAULT '';

UPDATE asks SET rules = json_array(json_object('reason', reason, 'rule', rule,
	'policy', policy, 'paths', json(paths), 'key', grant_key));

DROP INDEX asks_one_open_question;
CREATE UNIQUE INDEX asks_one_open_question
	ON asks (session_id, line, place, grant_key, facts) WHERE outcome IS NULL;

ALTER TABLE grants ADD COLUMN facts TEXT NOT NULL DEFAULT '';
-- A once or deny grant is taken by one line: claimed_by names it (unique
-- per line), claimed_at says when. Unclaimed while both are empty/null.
ALTER TABLE grants ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
ALTER TABLE grants ADD COLUMN claimed_at TEXT;
