package decisions

import "context"

// CreateSession persists a session so that later processes can find it
// (`gatehouse exec -s ID`, G-11.4; REST sessions, G-10.6). An empty ID gets
// a fresh 12-hex one, an empty Cwd "/", a zero CreatedAt the ledger clock's
// time. Errors: ErrExists when the id is taken.
func (l *Ledger) CreateSession(ctx context.Context, s SessionRow) (SessionRow, error) {
	return l.store.CreateSession(ctx, s)
}

// EnsureSession returns the session with s.ID, creating it from s in the
// same atomic step when the ledger has none: processes racing to open one
// session id all get the same row (G-11.4). created reports which
// happened. Errors: ErrInvalid for an empty id.
func (l *Ledger) EnsureSession(ctx context.Context, s SessionRow) (SessionRow, bool, error) {
	return l.store.EnsureSession(ctx, s)
}

// GetSession returns one persisted session. Errors: ErrNotFound.
func (l *Ledger) GetSession(ctx context.Context, id string) (SessionRow, error) {
	return l.store.GetSession(ctx, id)
}

// ListSessions returns every persisted session, oldest first.
func (l *Ledger) ListSessions(ctx context.Context) ([]SessionRow, error) {
	return l.store.ListSessions(ctx)
}

// SetSessionCwd records a session's current directory, so a later process
// resuming it starts where the last line left off (G-2.3, G-11.4).
// Errors: ErrNotFound.
func (l *Ledger) SetSessionCwd(ctx context.Context, id, cwd string) error {
	return l.store.SetSessionCwd(ctx, id, cwd)
}
