package shell

import (
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"time"

	"gatehouse/core/vfs"
)

// stdioFS serves /dev/stdin, /dev/stdout, /dev/stderr and the /dev/fd/N
// files of process substitution to a utility, from its own streams and the
// session's fd table; every other path goes to the door-checked view.
type stdioFS struct {
	vfs.FS
	fds    *fdTable
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

func (f *stdioFS) special(name string) (vfs.File, bool, error) {
	switch name {
	case "/dev/stdin", "/dev/fd/0":
		return &streamFile{name: name, r: f.stdin}, true, nil
	case "/dev/stdout", "/dev/fd/1":
		return &streamFile{name: name, w: f.stdout}, true, nil
	case "/dev/stderr", "/dev/fd/2":
		return &streamFile{name: name, w: f.stderr}, true, nil
	}
	if strings.HasPrefix(name, "/dev/fd/") {
		if k, ok := f.fds.sink(name); ok {
			return &streamFile{name: name, r: strings.NewReader(k.String()), w: k}, true, nil
		}
		if data, ok := f.fds.get(name); ok {
			return &streamFile{name: name, r: strings.NewReader(data)}, true, nil
		}
		return nil, true, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
	}
	return nil, false, nil
}

// GitView wraps the git view of the FS it wraps (vfs.GitViewer).
func (f *stdioFS) GitView(role vfs.GitRole) (vfs.FS, bool) {
	inner, ok := vfs.GitView(f.FS, role)
	g := *f
	g.FS = inner
	return &g, ok
}

func (f *stdioFS) Open(name string) (vfs.File, error) {
	if sf, ok, err := f.special(name); ok {
		return sf, err
	}
	return f.FS.Open(name)
}

func (f *stdioFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if sf, ok, err := f.special(name); ok {
		return sf, err
	}
	return f.FS.OpenFile(name, flag, perm)
}

func (f *stdioFS) Stat(name string) (fs.FileInfo, error) {
	if sf, ok, err := f.special(name); ok {
		if err != nil {
			return nil, err
		}
		return sf.Stat()
	}
	return f.FS.Stat(name)
}

// streamFile is a stream opened as a file.
type streamFile struct {
	name string
	r    io.Reader
	w    io.Writer
}

func (s *streamFile) Read(p []byte) (int, error) {
	if s.r == nil {
		return 0, &fs.PathError{Op: "read", Path: s.name, Err: syscall.EBADF}
	}
	return s.r.Read(p)
}

func (s *streamFile) Write(p []byte) (int, error) {
	if s.w == nil {
		return 0, &fs.PathError{Op: "write", Path: s.name, Err: syscall.EBADF}
	}
	return s.w.Write(p)
}

func (s *streamFile) Close() error { return nil }

func (s *streamFile) Seek(int64, int) (int64, error) {
	return 0, &fs.PathError{Op: "seek", Path: s.name, Err: syscall.ESPIPE}
}

func (s *streamFile) Stat() (fs.FileInfo, error) { return streamInfo{name: s.name}, nil }

type streamInfo struct{ name string }

func (i streamInfo) Name() string       { return i.name[strings.LastIndexByte(i.name, '/')+1:] }
func (i streamInfo) Size() int64        { return 0 }
func (i streamInfo) Mode() fs.FileMode  { return os.ModeNamedPipe | 0o600 }
func (i streamInfo) ModTime() time.Time { return time.Time{} }
func (i streamInfo) IsDir() bool        { return false }
func (i streamInfo) Sys() any           { return nil }
