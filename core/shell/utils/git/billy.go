package git

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-git/go-billy/v5"

	"gatehouse/core/vfs"
)

// doorFS is a go-billy filesystem over the session's door-checked view,
// rooted at an absolute VFS directory. go-git's object, reference and
// index code reaches .git only through it, so every read and write of the
// repository passes the op door like any other command's (G-6.1).
type doorFS struct {
	fsys vfs.FS
	root string // absolute, cleaned
}

var _ billy.Filesystem = (*doorFS)(nil)

// tempSeq makes temporary names unique within the process; O_EXCL makes
// them safe against anything else.
var tempSeq atomic.Uint64

func newDoorFS(fsys vfs.FS, root string) *doorFS { return &doorFS{fsys: fsys, root: path.Clean(root)} }

// abs maps a name relative to the root (or absolute within it, as go-git
// sometimes passes) to its VFS path.
func (d *doorFS) abs(name string) string {
	if path.IsAbs(name) && (name == d.root || len(name) > len(d.root) && name[:len(d.root)+1] == d.root+"/") {
		return path.Clean(name)
	}
	return path.Join(d.root, name)
}

func (d *doorFS) Create(name string) (billy.File, error) {
	return d.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (d *doorFS) Open(name string) (billy.File, error) { return d.OpenFile(name, os.O_RDONLY, 0) }

func (d *doorFS) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	p := d.abs(name)
	if flag&os.O_CREATE != 0 {
		if err := d.MkdirAll(path.Dir(name), 0o777); err != nil {
			return nil, err
		}
	}
	f, err := d.fsys.OpenFile(p, flag, perm)
	if err != nil {
		return nil, err
	}
	return &doorFile{f: f, name: name}, nil
}

func (d *doorFS) Stat(name string) (os.FileInfo, error)  { return d.fsys.Stat(d.abs(name)) }
func (d *doorFS) Lstat(name string) (os.FileInfo, error) { return d.fsys.Lstat(d.abs(name)) }

func (d *doorFS) Rename(oldname, newname string) error {
	if err := d.MkdirAll(path.Dir(newname), 0o777); err != nil {
		return err
	}
	return d.fsys.Rename(d.abs(oldname), d.abs(newname))
}

func (d *doorFS) Remove(name string) error { return d.fsys.Remove(d.abs(name)) }

func (d *doorFS) Join(elem ...string) string { return path.Join(elem...) }

func (d *doorFS) TempFile(dir, prefix string) (billy.File, error) {
	for {
		name := path.Join(dir, prefix+strconv.FormatUint(uint64(time.Now().UnixNano())^tempSeq.Add(1)<<40, 36))
		f, err := d.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o444)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
}

func (d *doorFS) ReadDir(name string) ([]os.FileInfo, error) {
	entries, err := d.fsys.ReadDirInfo(d.abs(name))
	if err != nil {
		return nil, err
	}
	infos := make([]os.FileInfo, 0, len(entries))
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			infos = append(infos, info)
		}
	}
	return infos, nil
}

// MkdirAll makes name and its missing parents; the door judges each.
func (d *doorFS) MkdirAll(name string, perm os.FileMode) error {
	return mkdirAll(d.fsys, d.abs(name), perm)
}

func mkdirAll(fsys vfs.FS, p string, perm os.FileMode) error {
	info, err := fsys.Stat(p)
	if err == nil {
		if info.IsDir() {
			return nil
		}
		return &fs.PathError{Op: "mkdir", Path: p, Err: vfs.ENOTDIR}
	}
	if parent := path.Dir(p); parent != p {
		if err := mkdirAll(fsys, parent, perm); err != nil {
			return err
		}
	}
	if err := fsys.Mkdir(p, perm); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

func (d *doorFS) Symlink(target, link string) error { return d.fsys.Symlink(target, d.abs(link)) }

func (d *doorFS) Readlink(link string) (string, error) { return d.fsys.Readlink(d.abs(link)) }

func (d *doorFS) Chroot(p string) (billy.Filesystem, error) {
	return &doorFS{fsys: d.fsys, root: d.abs(p)}, nil
}

func (d *doorFS) Root() string { return d.root }

// doorFile is a VFS file as go-billy wants it. ReadAt falls back to a
// seek and a read under a lock for a file that cannot read at an offset.
type doorFile struct {
	mu   sync.Mutex
	f    vfs.File
	name string
}

func (f *doorFile) Name() string { return f.name }

func (f *doorFile) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.f.Read(p)
}

func (f *doorFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.f.Write(p)
}

func (f *doorFile) Seek(offset int64, whence int) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.f.Seek(offset, whence)
}

func (f *doorFile) ReadAt(p []byte, off int64) (int, error) {
	if ra, ok := f.f.(io.ReaderAt); ok {
		return ra.ReadAt(p, off)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	cur, err := f.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	defer f.f.Seek(cur, io.SeekStart)
	if _, err := f.f.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	n, err := io.ReadFull(f.f, p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = io.EOF
	}
	return n, err
}

func (f *doorFile) Close() error { return f.f.Close() }

// Lock and Unlock are no-ops: git's own locks are files created with
// O_EXCL (index.lock, refs' .lock), which this package takes itself.
func (f *doorFile) Lock() error   { return nil }
func (f *doorFile) Unlock() error { return nil }

func (f *doorFile) Truncate(size int64) error {
	if t, ok := f.f.(interface{ Truncate(int64) error }); ok {
		return t.Truncate(size)
	}
	return billy.ErrNotSupported
}
