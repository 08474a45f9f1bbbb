package vfs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// VFS is a mount table: memory and host mounts under absolute prefixes, the
// built-in /dev and /tmp, and the synthetic read-only directories that lead
// to them. It is reached through Views; it is safe for concurrent use.
type VFS struct {
	mounts    []*mount                 // sorted by prefix
	synthetic map[string]*syntheticDir // "/" and every directory above a mount prefix
	clock     func() time.Time
	born      time.Time
	// synthInfo describes every synthetic directory (name unset).
	synthInfo *fileInfo
	// own is gatehouse's own host files, concealed by every host mount
	// (see Conceal).
	own ownFiles
	// links counts the symlinks of every memory mount, and hostMounts the
	// host mounts: while both are zero, every path leads to itself.
	links      atomic.Int64
	hostMounts int
	// journaled: durable memory mounts journal their changes (WithJournal).
	journaled bool
}

// Option configures New.
type Option func(*VFS)

// WithClock sets the clock that stamps modification times (default time.Now).
func WithClock(now func() time.Time) Option {
	return func(v *VFS) {
		if now != nil {
			v.clock = now
		}
	}
}

// backend is one mount's storage. Paths are relative to the mount root
// ("" is the root itself), clean, and already resolved by the View: every
// component but the last names a real directory, never a symlink.
type backend interface {
	// walk looks rel up component by component without following links,
	// except the last one when follow is set, and stops at the first link it
	// would have to follow.
	walk(rel string, follow bool) walkResult
	readDir(rel string) ([]fs.DirEntry, error) // sorted by name
	// openFile opens an entry; name is the caller's spelling, used in the
	// errors of later reads and writes.
	openFile(rel string, flag int, perm fs.FileMode, name string) (File, error)
	mkdir(rel string, perm fs.FileMode) error
	remove(rel string) error
	rename(oldRel, newRel string) error
	symlink(target, rel string) error
	link(oldRel, newRel string) error // a second name of a file
	readlink(rel string) (string, error)
	chmod(rel string, mode fs.FileMode) error
	chtimes(rel string, atime, mtime time.Time) error
}

// directReader is a backend that can open an existing entry for reading
// in one step, without the walk before it: only when the path holds no
// link and the entry is a regular file or directory, which is then the
// path the View judges. The View judges it before a byte is read (G-6.1).
// ok is false whenever the general path (walk, judge, open) must answer;
// that path gives the exact error, so none is returned here.
type directReader interface {
	// openRead opens a file or directory; listedRegular is
	// OListedRegular's promise that the entry is a regular file.
	openRead(rel, name string, listedRegular bool) (f File, ok bool)
	openDir(rel string) (d dirLister, ok bool)
}

// dirLister is a directory opened by a directReader: list reads it once
// (withInfo: each entry's lstat taken too), close releases it.
type dirLister interface {
	list(withInfo bool) ([]fs.DirEntry, error)
	close()
}

// infoLister is a backend whose listings can carry each entry's lstat,
// for ReadDirInfo; backends without it list with their metadata already.
type infoLister interface {
	readDirInfo(rel string) ([]fs.DirEntry, error)
}

// walkResult is what a backend found for one path.
type walkResult struct {
	// info is the lstat of the last component when exists. It is shared
	// and never modified; its name may be empty or another link's.
	info     *fileInfo
	exists   bool
	parentOK bool  // every component but the last is a directory
	missing  error // ENOENT, ENOTDIR or EACCES when !exists
	linkEnd  int   // > 0: rel[:linkEnd] is a symlink the walk must follow
	target   string
}

// mount is one entry of the table.
type mount struct {
	prefix   string
	readOnly bool
	hostDir  string
	b        backend
	// confineTo holds the host directory's spellings for host mounts: link
	// targets are kept inside it (G-5.6). nil for memory and device mounts.
	confineTo []string
	// links counts the symlinks of a mount that keeps count (memory, /dev);
	// nil for a host mount, which may hold any (see VFS.LinkFree).
	links *atomic.Int64
	// quota is a host mount's write quota; nil when it has none.
	quota *quota
}

// syntheticDir is a read-only directory that exists only because mounts lie
// below it.
type syntheticDir struct {
	children []string // sorted names
}

// New builds the mount table. Prefixes must be absolute; they are cleaned.
// Duplicates, "/", and mounts nested inside other mounts are errors. Every
// VFS also gets /dev and, unless a spec mounts /tmp, a memory /tmp (G-5.7).
// Seed files belong to memory mounts; a key ending in "/" seeds an empty
// directory.
func New(specs []MountSpec, opts ...Option) (*VFS, error) {
	v := &VFS{clock: time.Now}
	for _, opt := range opts {
		opt(v)
	}
	v.born = v.clock()
	v.synthInfo = &fileInfo{size: dirSize, mode: fs.ModeDir | 0o555, modTime: v.born}

	all := make([]MountSpec, 0, len(specs)+2)
	hasTmp := false
	for _, s := range specs {
		if !path.IsAbs(s.Prefix) {
			return nil, fmt.Errorf("vfs: mount prefix %q is not absolute", s.Prefix)
		}
		s.Prefix = path.Clean(s.Prefix)
		switch {
		case s.Prefix == "/":
			return nil, errors.New(`vfs: "/" cannot be a mount prefix; the root lists the mounts`)
		case within(s.Prefix, "/dev"):
			return nil, fmt.Errorf("vfs: mount prefix %s is reserved for the built-in /dev", s.Prefix)
		case s.Prefix == "/tmp":
			hasTmp = true
		}
		all = append(all, s)
	}
	all = append(all, MountSpec{Prefix: "/dev"})
	if !hasTmp {
		all = append(all, MountSpec{Prefix: "/tmp", Ephemeral: true})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Prefix < all[j].Prefix })
	if err := checkNesting(all, hasTmp); err != nil {
		return nil, err
	}

	for _, s := range all {
		m, err := v.newMount(s)
		if err != nil {
			v.Close()
			return nil, err
		}
		v.mounts = append(v.mounts, m)
	}
	v.buildSynthetic()
	return v, nil
}

// checkNesting rejects duplicate prefixes and a mount inside another. In a
// list sorted by prefix, a mount's descendants are not always adjacent to it
// ("/a" < "/a-b" < "/a/b"), so every pair is compared; mount tables are small.
func checkNesting(sorted []MountSpec, userTmp bool) error {
	for i, a := range sorted {
		for _, b := range sorted[i+1:] {
			switch {
			case a.Prefix == b.Prefix:
				return fmt.Errorf("vfs: %s is mounted twice", a.Prefix)
			case within(b.Prefix, a.Prefix):
				if a.Prefix == "/tmp" && !userTmp {
					return fmt.Errorf("vfs: mount %s lies inside the built-in /tmp; mount /tmp itself to place mounts below it", b.Prefix)
				}
				return fmt.Errorf("vfs: mount %s is nested inside mount %s", b.Prefix, a.Prefix)
			}
		}
	}
	return nil
}

func (v *VFS) newMount(s MountSpec) (*mount, error) {
	m := &mount{prefix: s.Prefix, readOnly: s.ReadOnly, hostDir: s.HostDir}
	switch {
	case s.Prefix == "/dev":
		m.b = newDevFS(v.born)
		m.links = new(atomic.Int64) // /dev holds no links
	case s.HostDir != "":
		if len(s.Files) > 0 {
			return nil, fmt.Errorf("vfs: mount %s: seed files are for memory mounts, not host directories", s.Prefix)
		}
		if !filepath.IsAbs(s.HostDir) {
			return nil, fmt.Errorf("vfs: mount %s: host directory %q is not absolute", s.Prefix, s.HostDir)
		}
		if s.Size != 0 {
			return nil, fmt.Errorf("vfs: mount %s: size is for memory mounts; a host mount takes a quota", s.Prefix)
		}
		h, err := newHostFS(s.HostDir, &v.own)
		if err != nil {
			return nil, fmt.Errorf("vfs: mount %s: %w", s.Prefix, err)
		}
		if s.Quota > 0 {
			m.quota = &quota{limit: s.Quota}
			m.quota.left.Store(s.Quota)
		}
		m.b = h
		m.confineTo = h.spellings
		v.hostMounts++
	default:
		if s.Quota != 0 {
			return nil, fmt.Errorf("vfs: mount %s: quota is for host mounts; a memory mount takes a size", s.Prefix)
		}
		mem := newMemFS(v.clock)
		mem.space.limit = s.Size
		if mem.space.limit <= 0 {
			mem.space.limit = DefaultMemoryMountSize
		}
		if err := mem.seed(s.Files); err != nil {
			return nil, fmt.Errorf("vfs: mount %s: %w", s.Prefix, err)
		}
		mem.allLinks = &v.links
		mem.seedFiles = s.Files
		if v.journaled && !s.Ephemeral {
			mem.journal = &journal{paths: map[string]struct{}{}}
		}
		m.b = mem
		m.links = &mem.links
	}
	return m, nil
}

func (v *VFS) buildSynthetic() {
	children := map[string]map[string]bool{"/": {}}
	for _, m := range v.mounts {
		for p := m.prefix; p != "/"; p = dirName(p) {
			parent := dirName(p)
			if children[parent] == nil {
				children[parent] = map[string]bool{}
			}
			children[parent][baseName(p)] = true
		}
	}
	v.synthetic = make(map[string]*syntheticDir, len(children))
	for dir, names := range children {
		d := &syntheticDir{}
		for n := range names {
			d.children = append(d.children, n)
		}
		sort.Strings(d.children)
		v.synthetic[dir] = d
	}
}

// Close releases the host directories held open by host mounts.
func (v *VFS) Close() error {
	var errs []error
	for _, m := range v.mounts {
		if h, ok := m.b.(*hostFS); ok {
			errs = append(errs, h.close())
		}
	}
	return errors.Join(errs...)
}

// Mounts lists every mount, /dev and /tmp included, sorted by prefix. Files
// is nil. /dev is reported read-write: nothing can be created there (the
// VFS answers EROFS itself), but /dev/null and /dev/zero take writes, so a
// gate that applies mount modes must not refuse them.
func (v *VFS) Mounts() []MountSpec {
	out := make([]MountSpec, len(v.mounts))
	for i, m := range v.mounts {
		out[i] = MountSpec{Prefix: m.prefix, ReadOnly: m.readOnly, HostDir: m.hostDir}
	}
	return out
}

// MountOf returns the prefix of the mount that holds p (cleaned, links not
// followed); ok is false for the synthetic root and its synthetic dirs, and
// for a relative path.
func (v *VFS) MountOf(p string) (prefix string, ok bool) {
	clean, err := cleanAbs(p)
	if err != nil {
		return "", false
	}
	if m, _ := v.locate(clean); m != nil {
		return m.prefix, true
	}
	return "", false
}

// View returns the filesystem as a door sees it: every operation passes d
// first. A nil door is OpenDoor.
func (v *VFS) View(d Door) FS {
	return v.ViewUmask(d, DefaultUmask)
}

// ViewUmask is View for a caller with its own file mode creation mask
// (the shell's umask): the permission bits of every file and directory
// the view creates are those asked for less mask's.
func (v *VFS) ViewUmask(d Door, mask fs.FileMode) FS {
	open := d == nil
	if open {
		d = OpenDoor
	}
	return &view{vfs: v, door: d, umask: mask.Perm(), open: open}
}

// locate finds the mount holding the clean path p and the path inside it.
func (v *VFS) locate(p string) (*mount, string) {
	for _, m := range v.mounts {
		n := len(m.prefix)
		if len(p) < n || p[:n] != m.prefix {
			continue
		}
		if len(p) == n {
			return m, ""
		}
		if p[n] == '/' {
			return m, p[n+1:]
		}
	}
	return nil, ""
}

// mountAt returns the mount whose prefix is exactly p.
func (v *VFS) mountAt(p string) *mount {
	m, rel := v.locate(p)
	if m != nil && rel == "" {
		return m
	}
	return nil
}

// linkDest turns the target of the link at linkPath into the VFS path it
// leads to. On a host mount an absolute target is a host path: inside the
// host directory it maps to the matching VFS path, elsewhere it leads
// nowhere; a relative one must stay inside the mount (G-5.6).
func (m *mount) linkDest(linkPath, target string) (string, bool) {
	if target == "" {
		return "", false
	}
	if target[0] == '/' {
		t := path.Clean(target)
		if m.confineTo == nil {
			return t, true
		}
		return m.hostToVFS(t)
	}
	if m.confineTo != nil && climbsOut(strings.Count(linkPath[len(m.prefix):], "/")-1, target) {
		return "", false
	}
	return path.Clean(dirName(linkPath) + "/" + target), true
}

// climbsOut reports whether a relative target, read from a directory depth
// levels below the mount root, ever steps above the root. Coming back down
// does not redeem it: on the host, "../repo/x" leaves the directory and
// names whatever sits beside it, whatever the mount is called here.
func climbsOut(depth int, target string) bool {
	for _, c := range strings.Split(target, "/") {
		switch c {
		case "", ".":
		case "..":
			if depth--; depth < 0 {
				return true
			}
		default:
			depth++
		}
	}
	return false
}

// hostToVFS maps a clean absolute host path inside the mount's host
// directory to its VFS path.
func (m *mount) hostToVFS(hostPath string) (string, bool) {
	for _, host := range m.confineTo {
		if !within(hostPath, host) {
			continue
		}
		rest := hostPath[len(host):]
		if host == "/" {
			rest = strings.TrimSuffix(hostPath, "/")
		}
		return m.prefix + rest, true
	}
	return "", false
}
