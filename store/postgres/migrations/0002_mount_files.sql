-- Durable memory mounts (G-5.6): what the agents changed in a workspace's
-- memory mounts, relative to the seed its document gives, so that files
-- outlive the process that wrote them and every host of the workspace sees
-- them. The same records as the SQLite ledger's mount_state and mount_files.
--
-- A workspace is named by its document's path and a mount file by its path,
-- both chosen by people and agents and so of any length: keys are SHA-256
-- digests, never the text itself. Mounts and paths are bytea, so they keep
-- any bytes and sort byte by byte, as SQLite's BINARY collation does.
-- Modification times keep the nanosecond, as seconds and nanoseconds.

-- Where a workspace's mount files stand: rev grows with every save (each
-- line's changes, in commit order: a save holds this row until it commits),
-- epoch with every reset to the seed.
CREATE TABLE mount_state (
	workspace_key text PRIMARY KEY,
	workspace     text NOT NULL,
	rev           bigint NOT NULL,
	epoch         bigint NOT NULL
);

-- One row per path that differs from the seed, as it stands now: a file,
-- a directory, a symbolic link, or gone (removed). rev is the save that
-- last wrote it.
CREATE TABLE mount_files (
	workspace_key text NOT NULL,
	file_key      text NOT NULL,
	mount         bytea NOT NULL,
	path          bytea NOT NULL,
	kind          text NOT NULL CHECK (kind IN ('file', 'dir', 'link', 'gone')),
	mode          bigint NOT NULL,
	mod_sec       bigint NOT NULL,
	mod_nsec      integer NOT NULL,
	data          bytea,
	target        text NOT NULL DEFAULT '',
	rev           bigint NOT NULL,
	PRIMARY KEY (workspace_key, file_key)
);
CREATE INDEX mount_files_rev ON mount_files (workspace_key, rev);
