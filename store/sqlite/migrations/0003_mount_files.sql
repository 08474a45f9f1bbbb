-- Durable memory mounts (G-5.6): what the agents changed in a workspace's
-- memory mounts, relative to the seed its document gives, so that files
-- outlive the process that wrote them and every process of the workspace
-- sees them.

-- Where a workspace's mount files stand: rev grows with every save (each
-- line's changes, in commit order), epoch with every reset to the seed.
CREATE TABLE mount_state (
	workspace TEXT PRIMARY KEY,
	rev       INTEGER NOT NULL,
	epoch     INTEGER NOT NULL
);

-- One row per path that differs from the seed, as it stands now: a file,
-- a directory, a symbolic link, or gone (removed). rev is the save that
-- last wrote it.
CREATE TABLE mount_files (
	workspace TEXT NOT NULL,
	mount     TEXT NOT NULL,
	path      TEXT NOT NULL,
	kind      TEXT NOT NULL CHECK (kind IN ('file', 'dir', 'link', 'gone')),
	mode      INTEGER NOT NULL,
	mod_time  TEXT NOT NULL,
	data      BLOB,
	target    TEXT NOT NULL DEFAULT '',
	rev       INTEGER NOT NULL,
	PRIMARY KEY (workspace, mount, path)
);
CREATE INDEX mount_files_rev ON mount_files (workspace, rev);
