package vfs

import (
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// devFS is the built-in /dev (G-5.7): a fixed set of character devices. No
// name can be created, removed or renamed there (EROFS), but null and zero
// take writes, as they do on Linux.
type devFS struct {
	root    *fileInfo
	devices map[string]*fileInfo
}

func newDevFS(born time.Time) *devFS {
	d := &devFS{
		root:    &fileInfo{size: dirSize, mode: fs.ModeDir | 0o755, modTime: born},
		devices: map[string]*fileInfo{},
	}
	for _, name := range devices {
		d.devices[name] = &fileInfo{name: name, mode: fs.ModeDevice | fs.ModeCharDevice | 0o666, modTime: born}
	}
	return d
}

// devices is sorted, as listings are.
var devices = []string{"null", "stderr", "stdin", "stdout", "zero"}

func isDevice(name string) bool {
	i := sort.SearchStrings(devices, name)
	return i < len(devices) && devices[i] == name
}

func (d *devFS) walk(rel string, _ bool) walkResult {
	switch {
	case rel == "":
		return walkResult{info: d.root, exists: true, parentOK: true}
	case isDevice(rel):
		return walkResult{info: d.devices[rel], exists: true, parentOK: true}
	case strings.Contains(rel, "/"):
		if isDevice(rel[:strings.IndexByte(rel, '/')]) {
			return walkResult{missing: ENOTDIR}
		}
		return walkResult{missing: ENOENT}
	}
	return walkResult{missing: ENOENT, parentOK: true}
}

func (d *devFS) readDir(rel string) ([]fs.DirEntry, error) {
	if rel != "" {
		return nil, ENOTDIR
	}
	infos := make([]fileInfo, len(devices))
	for i, name := range devices {
		infos[i] = *d.devices[name]
	}
	return entriesOf(infos), nil
}

func (d *devFS) openFile(rel string, flag int, _ fs.FileMode, name string) (File, error) {
	switch rel {
	case "":
		if flag&writeFlags != 0 {
			return nil, EISDIR
		}
		return &dirFile{name: name, info: *d.root.named(path.Base(name))}, nil
	case "null":
		return &deviceFile{name: name, info: *d.devices["null"]}, nil
	case "zero":
		return &deviceFile{name: name, info: *d.devices["zero"], zeros: true}, nil
	case "stdin", "stdout", "stderr":
		return nil, ErrStdio
	}
	if flag&createFlag != 0 {
		return nil, EROFS
	}
	return nil, ENOENT
}

func (d *devFS) mkdir(string, fs.FileMode) error { return EROFS }
func (d *devFS) remove(string) error             { return EROFS }
func (d *devFS) rename(string, string) error     { return EROFS }
func (d *devFS) symlink(string, string) error    { return EROFS }
func (d *devFS) link(string, string) error       { return EROFS }
func (d *devFS) readlink(string) (string, error) { return "", EINVAL }
func (d *devFS) chmod(string, fs.FileMode) error { return EPERM }
func (d *devFS) chtimes(string, time.Time, time.Time) error {
	return nil // `touch /dev/null` succeeds; devices keep no times
}

// deviceFile is an open /dev/null (reads end at once) or /dev/zero (reads
// never end); both swallow writes.
type deviceFile struct {
	name  string
	info  fileInfo
	zeros bool
	// closed is atomic: the shell may close a redirection while the
	// goroutine copying it into a pipe still reads.
	closed atomic.Bool
}

func (f *deviceFile) Read(p []byte) (int, error) {
	if f.closed.Load() {
		return 0, pathErr("read", f.name, fs.ErrClosed)
	}
	if !f.zeros {
		return 0, io.EOF
	}
	clear(p)
	return len(p), nil
}

func (f *deviceFile) Write(p []byte) (int, error) {
	if f.closed.Load() {
		return 0, pathErr("write", f.name, fs.ErrClosed)
	}
	return len(p), nil
}

func (f *deviceFile) Seek(int64, int) (int64, error) { return 0, nil }

func (f *deviceFile) Stat() (fs.FileInfo, error) { c := f.info; return &c, nil }

func (f *deviceFile) Close() error {
	if f.closed.Swap(true) {
		return pathErr("close", f.name, fs.ErrClosed)
	}
	return nil
}
