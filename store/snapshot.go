package store

import (
	"context"
	"time"
)

// Snapshot is a whole ledger as rows, for copying one ledger into another
// (`gatehouse migrate`): every session, ask and grant with its id, rev,
// claim and times, so that the copy answers, claims and orders exactly as
// the original did, and the durable mount files of every workspace.
type Snapshot struct {
	Sessions []SessionRow // oldest first
	Asks     []SavedAsk   // in the order raised
	Grants   []Grant      // by id
	// HostTokenHashes are hashes of host tokens (see HostTokens) the
	// target keeps too, so hosts holding the old token go on answering.
	HostTokenHashes []string
	Mounts          []SavedMounts // by workspace
}

// SavedMounts is a workspace's durable mount files as a snapshot holds
// them: where they stand and every row, each with the rev that wrote it.
type SavedMounts struct {
	Workspace string
	State     MountState
	Files     []MountFile // by mount and path
}

// SavedAsk is an ask as a snapshot holds it: the record, the rev of its
// last change, and when it was closed (zero unless Record.Closed is set).
type SavedAsk struct {
	Record   Record
	Rev      int64
	ClosedAt time.Time
}

// Exporter is a ledger that can write out all its rows at one moment.
type Exporter interface {
	// Export reads the whole ledger in one consistent view.
	Export(ctx context.Context) (*Snapshot, error)
}

// Importer is a ledger that can be filled from a snapshot.
type Importer interface {
	// Import writes snap into an empty ledger in one transaction: all of it
	// or, on any error, none. Errors: ErrExists when the ledger already
	// holds a session, ask, grant or mount file.
	Import(ctx context.Context, snap *Snapshot) error
}
