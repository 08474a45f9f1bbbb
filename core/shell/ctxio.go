package shell

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"syscall"

	"gatehouse/core/vfs"
)

// Wall time must end every line (G-12.3), including a utility that loops
// over endless input without looking at its context (`cat /dev/zero >
// /dev/null`, `cp /dev/zero /tmp/f`, `grep x /dev/zero`). Every stream and
// file a utility is given therefore stops once the line's context is done:
// reads and writes fail with errStopped, and the utility ends as it would on
// any I/O error. The check is one non-blocking receive per call.

// errStopped is what a read or write sees once the line was stopped (wall
// time, an unanswered ask, a limit). Utilities may print it; the shell's
// own message says why the line ended.
var errStopped = errors.New("the line was stopped")

// stopReader is a reader that fails once done is closed.
type stopReader struct {
	r    io.Reader
	done <-chan struct{}
}

func (s stopReader) Read(p []byte) (int, error) {
	select {
	case <-s.done:
		return 0, errStopped
	default:
	}
	return s.r.Read(p)
}

// stopWriter is a writer that fails once done is closed.
type stopWriter struct {
	w    io.Writer
	done <-chan struct{}
}

func (s stopWriter) Write(p []byte) (int, error) {
	select {
	case <-s.done:
		return 0, errStopped
	default:
	}
	return s.w.Write(p)
}

// stopFS hands out files whose reads and writes fail once done is closed.
type stopFS struct {
	vfs.FS
	done <-chan struct{}
}

func (s stopFS) Open(name string) (vfs.File, error) {
	f, err := s.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return &stopFile{File: f, done: s.done}, nil
}

func (s stopFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := s.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &stopFile{File: f, done: s.done}, nil
}

// stopFile is a file whose reads and writes fail once done is closed.
type stopFile struct {
	vfs.File
	done <-chan struct{}
}

func (f *stopFile) Read(p []byte) (int, error) {
	select {
	case <-f.done:
		return 0, errStopped
	default:
	}
	return f.File.Read(p)
}

func (f *stopFile) Write(p []byte) (int, error) {
	select {
	case <-f.done:
		return 0, errStopped
	default:
	}
	return f.File.Write(p)
}

// Truncate passes ftruncate(2) on to the file, when it has it.
func (f *stopFile) Truncate(size int64) error {
	select {
	case <-f.done:
		return errStopped
	default:
	}
	if tr, ok := f.File.(interface{ Truncate(int64) error }); ok {
		return tr.Truncate(size)
	}
	return syscall.ENOTSUP
}

// stoppable wraps a utility's streams and filesystem so they stop with ctx.
func stoppable(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, fsys vfs.FS) (io.Reader, io.Writer, io.Writer, vfs.FS) {
	done := ctx.Done()
	if done == nil {
		return stdin, stdout, stderr, fsys
	}
	if stdout != nil {
		stdout = stopWriter{w: stdout, done: done}
	}
	if stderr != nil {
		stderr = stopWriter{w: stderr, done: done}
	}
	return stopReader{r: stdin, done: done}, stdout, stderr, stopFS{FS: fsys, done: done}
}
