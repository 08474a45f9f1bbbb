package vfs

import (
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fixedClock makes modification times predictable.
var testEpoch = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

func fixedClock() time.Time { return testEpoch }

// mustVFS builds a VFS or stops the test.
func mustVFS(t testing.TB, specs ...MountSpec) *VFS {
	t.Helper()
	v, err := New(specs, WithClock(fixedClock))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

// readAll reads a whole file through the view.
func readAll(fsys FS, name string) (string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return string(b), err
}

// writeAll creates or truncates a file through the view.
func writeAll(fsys FS, name, content string) error {
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(f, content); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// names lists a directory's entry names, or the error text.
func names(fsys FS, dir string) string {
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return "error: " + err.Error()
	}
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name()
	}
	return strings.Join(out, " ")
}

// errnoOf returns the errno inside err, or 0.
func errnoOf(err error) syscall.Errno {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return 0
}

// ruleDoor is a stand-in for the gate: it hides subtrees, refuses subtrees
// with a reason except for stat/lstat (G-6.1b), and records what it saw.
type ruleDoor struct {
	hidden  []string
	refused map[string]string
	// createHidden makes creating a hidden name EACCES, as the gate does
	// when the parent is visible (G-4.11).
	createHidden bool

	mu  sync.Mutex
	ops []Op
}

func (d *ruleDoor) CheckOp(op Op) error {
	d.mu.Lock()
	d.ops = append(d.ops, op)
	d.mu.Unlock()
	for _, h := range d.hidden {
		if within(op.Path, h) {
			if op.Create && d.createHidden && op.Path == h {
				return EACCES
			}
			return ErrHidden
		}
	}
	for p, reason := range d.refused {
		if within(op.Path, p) && op.Name != OpStat && op.Name != OpLstat {
			return &RefusedError{Reason: reason}
		}
	}
	return nil
}
