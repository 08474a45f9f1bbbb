package shell

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"

	"gatehouse/core/shell/utils"
	"gatehouse/core/vfs"
)

// Wall time must end every line (G-12.3), including a utility that loops
// over endless input without looking at its context (`cat /dev/zero >
// /dev/null`, `cp /dev/zero /tmp/f`, `grep x /dev/zero`). Every stream and
// file a utility is given therefore stops once the line's context is done:
// reads and writes fail with errStopped, and the utility ends as it would on
// any I/O error. The check is one non-blocking receive per call. The same
// wrappers charge what a utility keeps of its input to the line's memory
// budget (memory.go).

// errStopped is what a read or write sees once the line was stopped (wall
// time, an unanswered ask, a limit). Utilities may print it; the shell's
// own message says why the line ended.
var errStopped = errors.New("the line was stopped")

// stopped reports whether done is closed.
func stopped(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// stopReader is a reader that fails once done is closed, and charges what
// it reads when charge is set.
type stopReader struct {
	r      io.Reader
	done   <-chan struct{}
	charge *inputCharge
}

func (s *stopReader) Read(p []byte) (int, error) {
	if stopped(s.done) {
		return 0, errStopped
	}
	n, err := s.r.Read(p)
	if n > 0 && s.charge != nil {
		if cerr := s.charge.account(p[:n]); cerr != nil {
			return 0, cerr
		}
	}
	return n, err
}

// Unread moves a seekable input back by n bytes a utility read past what
// it used (GNU head and grep -m leave a regular file's offset just past
// the last line they used); it reports false for a pipe.
func (s *stopReader) Unread(n int64) bool {
	sk, ok := s.r.(io.Seeker)
	if !ok || n <= 0 {
		return false
	}
	_, err := sk.Seek(-n, io.SeekCurrent)
	return err == nil
}

// stopWriter is a writer that fails once done is closed.
type stopWriter struct {
	w    io.Writer
	done <-chan struct{}
}

func (s stopWriter) Write(p []byte) (int, error) {
	if stopped(s.done) {
		return 0, errStopped
	}
	return s.w.Write(p)
}

// stopFS hands out files whose reads and writes fail once done is closed,
// and whose reads are charged as the utility's input.
type stopFS struct {
	vfs.FS
	done  <-chan struct{}
	mem   *utilMemory
	keeps utils.Keeps
}

// GitView wraps the git view of the FS it wraps (vfs.GitViewer).
func (s stopFS) GitView(role vfs.GitRole) (vfs.FS, bool) {
	inner, ok := vfs.GitView(s.FS, role)
	s.FS = inner
	return s, ok
}

func (s stopFS) Open(name string) (vfs.File, error) {
	return s.OpenFile(name, os.O_RDONLY, 0)
}

func (s stopFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := s.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	if s.keeps != utils.KeepsAll && s.keeps != utils.KeepsLines && flag&(os.O_WRONLY|os.O_RDWR) == 0 && vfs.Finite(f) {
		// Reading a memory file ends, and the mount's size bounds what a
		// line of it can hold: most files a line reads (grep over a
		// tree) go unwrapped, which keeps the hot path as it was. A
		// utility that holds a line of many files at once is charged.
		return f, nil
	}
	if flag&(os.O_WRONLY|os.O_RDWR) != os.O_WRONLY {
		if c := newInputCharge(s.mem, s.keeps); c != nil {
			// The file and its charge in one allocation: grep -r
			// opens every file of a tree.
			cf := &chargedStopFile{stopFile: stopFile{File: f, done: s.done}, c: *c}
			cf.charge = &cf.c
			return &cf.stopFile, nil
		}
	}
	return &stopFile{File: f, done: s.done}, nil
}

// chargedStopFile is a stopFile allocated with its input's charge.
type chargedStopFile struct {
	stopFile
	c inputCharge
}

// stopFile is a file whose reads and writes fail once done is closed.
type stopFile struct {
	vfs.File
	done   <-chan struct{}
	charge *inputCharge
}

func (f *stopFile) Read(p []byte) (int, error) {
	if stopped(f.done) {
		return 0, errStopped
	}
	n, err := f.File.Read(p)
	if n > 0 && f.charge != nil {
		if cerr := f.charge.account(p[:n]); cerr != nil {
			return 0, cerr
		}
	}
	return n, err
}

func (f *stopFile) Write(p []byte) (int, error) {
	if stopped(f.done) {
		return 0, errStopped
	}
	return f.File.Write(p)
}

// Truncate passes ftruncate(2) on to the file, when it has it.
func (f *stopFile) Truncate(size int64) error {
	if stopped(f.done) {
		return errStopped
	}
	if tr, ok := f.File.(interface{ Truncate(int64) error }); ok {
		return tr.Truncate(size)
	}
	return syscall.ENOTSUP
}

// stoppable wraps a utility's streams and filesystem so they stop with ctx
// and charge what the utility keeps of its input to mem.
func stoppable(ctx context.Context, mem *utilMemory, keeps utils.Keeps, stdin io.Reader, stdout, stderr io.Writer, fsys vfs.FS) (io.Reader, io.Writer, io.Writer, vfs.FS) {
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
	in := &stopReader{r: stdin, done: done, charge: newInputCharge(mem, keeps)}
	return in, stdout, stderr, stopFS{FS: fsys, done: done, mem: mem, keeps: keeps}
}
