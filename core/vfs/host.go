package vfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"syscall"
	"time"
)

// hostFS is a mount over a real directory. Every access goes through an
// os.Root, so no name, however spelled and whatever links it meets, reaches
// outside the directory; the View resolves links itself before calling, so
// the Root's own link following only matters in a race.
type hostFS struct {
	root *os.Root
	// spellings are the host directory as given and with its own symlinks
	// resolved: an absolute link target inside either maps into the mount.
	spellings []string
}

func newHostFS(dir string) (*hostFS, error) {
	dir = filepath.Clean(dir)
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("host directory %s is not a directory", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	h := &hostFS{root: root, spellings: []string{filepath.ToSlash(dir)}}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		h.spellings = append(h.spellings, filepath.ToSlash(real))
	}
	return h, nil
}

// hostName is rel as os.Root spells it.
func hostName(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// hostErr reduces an os error to the errno the View reports. os.Root's own
// "path escapes from parent" has no errno: for the caller, a name that
// would leave the mount does not exist (G-5.6).
func hostErr(err error) error {
	if err == nil {
		return nil
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	if errors.Is(err, fs.ErrClosed) {
		return fs.ErrClosed
	}
	return ENOENT
}

func hostInfo(fi fs.FileInfo) fileInfo {
	return fileInfo{size: fi.Size(), mode: fi.Mode(), modTime: fi.ModTime()}
}

// walk lstats every prefix of rel, so a link anywhere on the way is seen
// and handed back to the View instead of being followed by the host.
func (h *hostFS) walk(rel string, follow bool) walkResult {
	if rel == "" {
		fi, err := h.root.Lstat(".")
		if err != nil {
			return walkResult{missing: hostErr(err)}
		}
		return walkResult{info: hostInfo(fi).named(""), exists: true, parentOK: true}
	}
	var fi fs.FileInfo
	for start := 0; ; {
		next := start + indexOrLen(rel[start:], '/')
		last := next == len(rel)
		var err error
		fi, err = h.root.Lstat(rel[:next])
		if err != nil {
			errno := hostErr(err)
			return walkResult{missing: errno, parentOK: last && errno == ENOENT}
		}
		if fi.Mode()&fs.ModeSymlink != 0 && (!last || follow) {
			target, err := h.root.Readlink(rel[:next])
			if err != nil {
				return walkResult{missing: hostErr(err)}
			}
			return walkResult{linkEnd: next, target: filepath.ToSlash(target), parentOK: true}
		}
		if last {
			break
		}
		if !fi.IsDir() {
			return walkResult{missing: ENOTDIR}
		}
		start = next + 1
	}
	return walkResult{info: hostInfo(fi).named(fi.Name()), exists: true, parentOK: true}
}

func indexOrLen(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return len(s)
}

func (h *hostFS) readDir(rel string) ([]fs.DirEntry, error) {
	dir, err := h.root.Open(hostName(rel))
	if err != nil {
		return nil, hostErr(err)
	}
	defer dir.Close()
	raw, err := dir.ReadDir(-1)
	if err != nil {
		return nil, hostErr(err)
	}
	backing := make([]hostDirEntry, len(raw))
	out := make([]fs.DirEntry, len(raw))
	for i, e := range raw {
		backing[i] = hostDirEntry{h: h, rel: path.Join(rel, e.Name()), name: e.Name(), typ: e.Type()}
		out[i] = &backing[i]
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// hostDirEntry takes its lstat through the Root when asked, as os.ReadDir
// entries do, so listing a large directory costs no per-entry syscall.
type hostDirEntry struct {
	h    *hostFS
	rel  string
	name string
	typ  fs.FileMode
}

func (e *hostDirEntry) Name() string      { return e.name }
func (e *hostDirEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *hostDirEntry) Type() fs.FileMode { return e.typ }
func (e *hostDirEntry) String() string    { return fs.FormatDirEntry(e) }
func (e *hostDirEntry) Info() (fs.FileInfo, error) {
	fi, err := e.h.root.Lstat(e.rel)
	if err != nil {
		return nil, pathErr("lstat", e.name, hostErr(err))
	}
	return hostInfo(fi).named(e.name), nil
}

func (h *hostFS) openFile(rel string, flag int, perm fs.FileMode, name string) (File, error) {
	f, err := h.root.OpenFile(hostName(rel), flag, perm)
	if err != nil {
		return nil, hostErr(err)
	}
	return &hostFile{f: f, name: name}, nil
}

func (h *hostFS) mkdir(rel string, perm fs.FileMode) error {
	return hostErr(h.root.Mkdir(rel, perm))
}

func (h *hostFS) remove(rel string) error { return hostErr(h.root.Remove(rel)) }

func (h *hostFS) rename(oldRel, newRel string) error {
	return hostErr(h.root.Rename(oldRel, newRel))
}

func (h *hostFS) symlink(target, rel string) error {
	return hostErr(h.root.Symlink(filepath.FromSlash(target), rel))
}

func (h *hostFS) readlink(rel string) (string, error) {
	target, err := h.root.Readlink(rel)
	return filepath.ToSlash(target), hostErr(err)
}

func (h *hostFS) chmod(rel string, mode fs.FileMode) error {
	return hostErr(h.root.Chmod(hostName(rel), mode))
}

func (h *hostFS) chtimes(rel string, atime, mtime time.Time) error {
	return hostErr(h.root.Chtimes(hostName(rel), atime, mtime))
}

// hostFile is an open host file whose errors name the VFS path, never the
// host path behind it.
type hostFile struct {
	f    *os.File
	name string
}

func (f *hostFile) fix(op string, err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	return pathErr(op, f.name, hostErr(err))
}

func (f *hostFile) Read(p []byte) (int, error) {
	n, err := f.f.Read(p)
	return n, f.fix("read", err)
}

func (f *hostFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.f.ReadAt(p, off)
	return n, f.fix("read", err)
}

func (f *hostFile) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	return n, f.fix("write", err)
}

func (f *hostFile) Seek(offset int64, whence int) (int64, error) {
	n, err := f.f.Seek(offset, whence)
	return n, f.fix("seek", err)
}

// Truncate changes the file's size, as ftruncate(2).
func (f *hostFile) Truncate(size int64) error { return f.fix("truncate", f.f.Truncate(size)) }

func (f *hostFile) Stat() (fs.FileInfo, error) {
	fi, err := f.f.Stat()
	if err != nil {
		return nil, f.fix("stat", err)
	}
	return hostInfo(fi).named(path.Base(f.name)), nil
}

func (f *hostFile) Close() error { return f.fix("close", f.f.Close()) }
