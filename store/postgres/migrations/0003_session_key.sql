-- The key REST daemons sign session tokens with (G-10.6): one row, shared
-- by every daemon on the ledger, so a token handed out by one daemon is
-- honoured by every other and by the same daemon after a restart. It is a
-- secret (whoever reads it can forge any session's token), kept here for
-- the same reason host_tokens is: a ledger on a server has no private file
-- beside it. Replacing the row revokes every session token at once.
CREATE TABLE session_key (
	only_row   boolean PRIMARY KEY DEFAULT true CHECK (only_row),
	key        bytea NOT NULL CHECK (length(key) >= 32),
	created_at timestamptz NOT NULL
);
