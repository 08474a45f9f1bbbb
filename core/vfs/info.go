package vfs

import (
	"errors"
	"io"
	"io/fs"
	"sync/atomic"
	"syscall"
	"time"
)

// ErrStdio is the error OpenFile gives for /dev/stdin, /dev/stdout and
// /dev/stderr: they exist for stat and listings, but their streams belong to
// the running command, so the shell layer serves them itself. Test with
// errors.Is.
var ErrStdio = errors.New("standard stream is served by the shell")

// More errno values the VFS returns, beside those of api.go.
var (
	EBUSY = syscall.EBUSY // removing or renaming a mount point
	EBADF = syscall.EBADF // writing a file opened read-only, or the reverse
	EPERM = syscall.EPERM // chmod of a device, a hard link to a directory
	// ENOTSUP: a hard link on a mount that keeps no second names (host).
	ENOTSUP = syscall.ENOTSUP
	// EAGAIN: a rename whose directory kept changing while it was judged.
	EAGAIN = syscall.EAGAIN
)

// Sizes reported for directories, as ext4 shows them, so `ls -l` looks the
// way users expect.
const dirSize = 4096

// Default permissions of seeded entries.
const (
	seedFileMode = 0o644
	seedDirMode  = 0o755
	linkMode     = 0o777
)

// DefaultUmask is the file mode creation mask of a View made by View: what
// a shell starts with, so `mkdir` and `touch` give 0755 and 0644.
const DefaultUmask fs.FileMode = 0o022

func pathErr(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// fileInfo is a snapshot of an entry's metadata.
type fileInfo struct {
	name    string
	size    int64
	mode    fs.FileMode
	modTime time.Time
	nlink   uint32 // names of a regular file or symlink; 0: unknown (1)
}

// Nlink counts the hard links of a regular file or symlink (at least 1);
// a directory's count is the caller's to work out, as ls does.
func (fi *fileInfo) Nlink() uint64 { return uint64(max(fi.nlink, 1)) }

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.size }
func (fi *fileInfo) Mode() fs.FileMode  { return fi.mode }
func (fi *fileInfo) ModTime() time.Time { return fi.modTime }
func (fi *fileInfo) IsDir() bool        { return fi.mode.IsDir() }
func (fi *fileInfo) Sys() any           { return nil }

// as returns fi under the given name, sharing fi when the name already
// matches: a Stat of a memory file then allocates nothing.
func (fi *fileInfo) as(name string) *fileInfo {
	if fi.name == name {
		return fi
	}
	return fi.named(name)
}

// named returns a heap copy of fi under the given name; this is the one
// allocation of a Stat.
func (fi fileInfo) named(name string) *fileInfo {
	fi.name = name
	return &fi
}

// dirEntry is a listing entry whose lstat information was taken with the
// listing (memory, /dev and synthetic directories).
type dirEntry struct{ info fileInfo }

func (e *dirEntry) Name() string               { return e.info.name }
func (e *dirEntry) IsDir() bool                { return e.info.mode.IsDir() }
func (e *dirEntry) Type() fs.FileMode          { return e.info.mode.Type() }
func (e *dirEntry) Info() (fs.FileInfo, error) { c := e.info; return &c, nil }
func (e *dirEntry) String() string             { return fs.FormatDirEntry(e) }

// entriesOf turns infos into DirEntries with a single allocation for all.
func entriesOf(infos []fileInfo) []fs.DirEntry {
	backing, out := newEntries(len(infos))
	for i := range infos {
		backing[i].info = infos[i]
	}
	return out
}

// newEntries allocates n entries at once and the DirEntry slice pointing
// at them; the caller fills backing.
func newEntries(n int) (backing []dirEntry, out []fs.DirEntry) {
	backing = make([]dirEntry, n)
	out = make([]fs.DirEntry, n)
	for i := range backing {
		out[i] = &backing[i]
	}
	return backing, out
}

// dirFile is an open directory of a memory, device or synthetic tree: it
// can be stat'ed and closed, and reads fail with EISDIR as on Linux. A
// redirection's copying goroutine may still read it while the statement
// closes it, so closed is atomic.
type dirFile struct {
	name   string
	info   fileInfo
	closed atomic.Bool
}

func (d *dirFile) Read([]byte) (int, error) {
	if d.closed.Load() {
		return 0, pathErr("read", d.name, fs.ErrClosed)
	}
	return 0, pathErr("read", d.name, EISDIR)
}

func (d *dirFile) Write([]byte) (int, error) {
	if d.closed.Load() {
		return 0, pathErr("write", d.name, fs.ErrClosed)
	}
	return 0, pathErr("write", d.name, EBADF)
}

func (d *dirFile) Seek(int64, int) (int64, error) { return 0, nil }

func (d *dirFile) Stat() (fs.FileInfo, error) { c := d.info; return &c, nil }

func (d *dirFile) Close() error {
	if d.closed.Swap(true) {
		return pathErr("close", d.name, fs.ErrClosed)
	}
	return nil
}

var _ io.ReadWriteSeeker = (*dirFile)(nil)
