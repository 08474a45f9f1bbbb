package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// attempts bounds how often one step of the ledger runs when the server
// says it may simply run again; pauses grow between attempts so that a
// server coming back from a restart has a moment.
var retryPauses = []time.Duration{0, 10 * time.Millisecond, 50 * time.Millisecond, 200 * time.Millisecond}

// retryable reports a failure after which the same step may run again
// without doing anything twice:
//   - the server rolled the transaction back to break a deadlock or a
//     serialization conflict (40P01, 40001);
//   - the connection's server process had been told to end (57P01
//     pg_terminate_backend or a fast shutdown, 57P02 a crash or an
//     immediate shutdown, 57P03 a server not yet accepting): the request
//     met a process that was gone or going, and anything it had begun was
//     rolled back;
//   - pgx failed before it sent anything (a dead socket it could not
//     write to, a refused connection).
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "40P01", "40001", "57P01", "57P02", "57P03":
			return true
		}
		return false
	}
	return pgconn.SafeToRetry(err)
}

// connectionLost reports a failure that leaves the pool's other idle
// connections suspect too: after a server restart or a mass termination,
// every one of them is dead.
func connectionLost(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03"
	}
	return pgconn.SafeToRetry(err)
}

// do runs one step of the ledger (one statement, or one transaction), again
// while it fails in a way retryable allows and attempts remain. A lost
// connection empties the pool first, so the next attempt dials afresh
// instead of meeting the next dead connection.
func (l *Ledger) do(ctx context.Context, step func() error) error {
	var err error
	for _, pause := range retryPauses {
		if pause > 0 {
			select {
			case <-time.After(pause):
			case <-ctx.Done():
				return err
			}
		}
		if err = step(); err == nil || !retryable(err) || ctx.Err() != nil {
			return err
		}
		if connectionLost(err) {
			l.pool.Reset()
		}
	}
	return err
}

// inTx runs fn in one transaction and commits it, again from the start when
// the transaction fails in a way retryable allows: the server rolled back
// whatever it had begun.
func (l *Ledger) inTx(ctx context.Context, fn func(pgx.Tx) error) error {
	return l.do(ctx, func() error { return pgx.BeginFunc(ctx, l.pool, fn) })
}

// queryOne runs a one-row statement through do and reads the row.
func queryOne[T any](ctx context.Context, l *Ledger, read func(pgx.Row) (T, error), sql string, args ...any) (T, error) {
	var v T
	err := l.do(ctx, func() error {
		var err error
		v, err = read(l.pool.QueryRow(ctx, sql, args...))
		return err
	})
	return v, err
}

// queryAll runs a query through do and reads every row; no rows is nil.
func queryAll[T any](ctx context.Context, l *Ledger, read func(pgx.Row) (T, error), sql string, args ...any) ([]T, error) {
	var out []T
	err := l.do(ctx, func() error {
		rows, err := l.pool.Query(ctx, sql, args...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (T, error) { return read(r) })
		return err
	})
	if len(out) == 0 {
		out = nil
	}
	return out, err
}

// exec runs one statement through do.
func (l *Ledger) exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	var tag pgconn.CommandTag
	err := l.do(ctx, func() error {
		var err error
		tag, err = l.pool.Exec(ctx, sql, args...)
		return err
	})
	return tag, err
}
