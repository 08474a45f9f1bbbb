package vfs

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// memFS is a mount that lives in the process: a tree of nodes under one
// RWMutex. Readers (stat, walk, listings, file reads) share the lock, so a
// recursive search over a large tree scales across goroutines.
type memFS struct {
	mu    sync.RWMutex
	clock func() time.Time
	root  *memNode
	// sortMu guards memNode.sorted while only a read lock is held: the
	// first listing of a changed directory fills the cache.
	sortMu sync.Mutex
	// gen counts namespace changes (entries added or dropped), so a rename
	// can tell that the tree it judged is the tree it moves (carry.go).
	gen atomic.Uint64
	// links counts the symlinks in the tree: while it is zero, every path
	// of the mount leads to itself (see VFS.LinkFree). allLinks, when set,
	// counts them for every memory mount of the VFS.
	links    atomic.Int64
	allLinks *atomic.Int64
	// space is what the mount's content takes, against its size.
	space space
	// journal records the paths changed since the ledger last took them,
	// for a durable mount (durable.go); nil for any other.
	journal *journal
	// seedFiles is the document's seed, for Reseed.
	seedFiles map[string]string
}

// memNode is a directory, a regular file or a symlink.
type memNode struct {
	mode    fs.FileMode
	modTime time.Time
	data    []byte              // regular file content
	target  string              // symlink target, verbatim
	kids    map[string]*memNode // directory entries
	// names counts the hard links to a regular file or symlink beyond its
	// first name (caller holds mu for writing to change it).
	names uint32
	// sorted caches kids by name for listings; nil once the directory
	// changes. Listing 100,000 entries then costs a copy, not a sort.
	sorted []memKid
	// stat caches the node's lstat under the name it was last looked up
	// by, so repeated stats allocate nothing; changed() drops it.
	stat atomic.Pointer[fileInfo]
}

type memKid struct {
	name string
	node *memNode
}

func newMemFS(clock func() time.Time) *memFS {
	return &memFS{clock: clock, root: newDirNode(seedDirMode, clock())}
}

func newDirNode(perm fs.FileMode, now time.Time) *memNode {
	return &memNode{mode: fs.ModeDir | perm, modTime: now, kids: map[string]*memNode{}}
}

func (n *memNode) isDir() bool  { return n.mode.IsDir() }
func (n *memNode) isLink() bool { return n.mode&fs.ModeSymlink != 0 }

func (n *memNode) info() fileInfo {
	fi := fileInfo{mode: n.mode, modTime: n.modTime, nlink: 1 + n.names}
	switch {
	case n.isDir():
		fi.size = dirSize
	case n.isLink():
		fi.size = int64(len(n.target))
	default:
		fi.size = int64(len(n.data))
	}
	return fi
}

// statAs returns the node's lstat named name, from the cache when it
// holds that name. Readers race to fill the cache with equal values.
func (n *memNode) statAs(name string) *fileInfo {
	if fi := n.stat.Load(); fi != nil && fi.name == name {
		return fi
	}
	fi := n.info().named(name)
	n.stat.Store(fi)
	return fi
}

// changed drops the cached lstat; every change of a node calls it (caller
// holds mu for writing).
func (n *memNode) changed(now time.Time) {
	n.modTime = now
	n.stat.Store(nil)
}

// add links a child in and invalidates the listing cache (caller holds mu).
func (n *memNode) add(name string, child *memNode, now time.Time) {
	n.kids[name] = child
	n.sorted = nil
	n.changed(now)
}

func (n *memNode) drop(name string, now time.Time) {
	delete(n.kids, name)
	n.sorted = nil
	n.changed(now)
}

// seed fills the tree from a MountSpec's Files, creating directories on the
// way. It runs before the mount is shared, so it takes no lock.
func (m *memFS) seed(files map[string]string) error {
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	sort.Strings(keys) // deterministic errors for conflicting keys
	now := m.clock()
	for _, key := range keys {
		rel := strings.TrimPrefix(path.Clean("/"+key), "/")
		if rel == "" || strings.HasPrefix(key, "../") || key == ".." {
			return fmt.Errorf("seed file %q is not a path inside the mount", key)
		}
		wantDir := strings.HasSuffix(key, "/")
		if wantDir && files[key] != "" {
			return fmt.Errorf("seed %q names a directory but has content", key)
		}
		dir := m.root
		comps := strings.Split(rel, "/")
		for i, name := range comps {
			last := i == len(comps)-1
			child := dir.kids[name]
			switch {
			case child == nil && (!last || wantDir):
				child = newDirNode(seedDirMode, now)
				dir.add(name, child, now)
			case child == nil:
				dir.add(name, &memNode{mode: seedFileMode, modTime: now, data: []byte(files[key])}, now)
			case !child.isDir() || (last && !wantDir):
				return fmt.Errorf("seed %q conflicts with another seed entry", key)
			}
			dir = child
		}
	}
	if cost := treeCost(m.root); m.space.grow(cost) != nil {
		return fmt.Errorf("seed files take %d bytes, more than the mount's size of %d", cost, m.space.limit)
	}
	return nil
}

// walk implements backend. It allocates nothing once a node's lstat is
// cached; components are scanned by hand because they are short.
func (m *memFS) walk(rel string, follow bool) walkResult {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, name := m.root, ""
	for i := 0; i < len(rel); {
		end := i
		for end < len(rel) && rel[end] != '/' {
			end++
		}
		last := end == len(rel)
		if !n.isDir() {
			return walkResult{missing: ENOTDIR}
		}
		name = rel[i:end]
		child := n.kids[name]
		if child == nil {
			return walkResult{missing: ENOENT, parentOK: last}
		}
		if child.isLink() && (!last || follow) {
			return walkResult{linkEnd: end, target: child.target, parentOK: true}
		}
		n = child
		i = end + 1
	}
	return walkResult{info: n.statAs(name), exists: true, parentOK: true}
}

// find returns the node at rel without following links (caller holds mu).
func (m *memFS) find(rel string) (*memNode, error) {
	if rel == "" {
		return m.root, nil
	}
	parent, name, err := m.findParent(rel)
	if err != nil {
		return nil, err
	}
	n := parent.kids[name]
	if n == nil {
		return nil, ENOENT
	}
	return n, nil
}

// findParent returns the directory that holds rel and rel's last name
// (caller holds mu). A link in the middle is ENOTDIR: the View resolved
// links before calling, so meeting one means the tree changed meanwhile.
func (m *memFS) findParent(rel string) (*memNode, string, error) {
	dir := m.root
	for {
		slash := strings.IndexByte(rel, '/')
		if slash < 0 {
			return dir, rel, nil
		}
		child := dir.kids[rel[:slash]]
		if child == nil {
			return nil, "", ENOENT
		}
		if !child.isDir() {
			return nil, "", ENOTDIR
		}
		dir, rel = child, rel[slash+1:]
	}
}

func (m *memFS) readDir(rel string) ([]fs.DirEntry, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, err := m.find(rel)
	if err != nil {
		return nil, err
	}
	if !n.isDir() {
		return nil, ENOTDIR
	}
	kids := m.sortedKids(n)
	backing, out := newEntries(len(kids))
	for i, k := range kids {
		backing[i].info = k.node.info()
		backing[i].info.name = k.name
	}
	return out, nil
}

// sortedKids returns n's children by name, sorting only after a change
// (caller holds mu for reading or writing).
func (m *memFS) sortedKids(n *memNode) []memKid {
	m.sortMu.Lock()
	defer m.sortMu.Unlock()
	if n.sorted == nil {
		sorted := make([]memKid, 0, len(n.kids))
		for name, node := range n.kids {
			sorted = append(sorted, memKid{name, node})
		}
		sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
		n.sorted = sorted
	}
	return n.sorted
}

func (m *memFS) openFile(rel string, flag int, perm fs.FileMode, name string) (File, error) {
	writing := flag&writeFlags != 0
	if writing {
		m.mu.Lock()
		defer m.mu.Unlock()
	} else {
		m.mu.RLock()
		defer m.mu.RUnlock()
	}
	var n *memNode
	if rel == "" {
		n = m.root
	} else {
		parent, base, err := m.findParent(rel)
		if err != nil {
			return nil, err
		}
		n = parent.kids[base]
		switch {
		case n == nil && flag&createFlag == 0:
			return nil, ENOENT
		case n == nil:
			if err := m.space.grow(entryCost); err != nil {
				return nil, err
			}
			now := m.clock()
			n = &memNode{mode: perm.Perm(), modTime: now}
			parent.add(base, n, now)
			m.gen.Add(1)
		case flag&createFlag != 0 && flag&exclFlag != 0:
			return nil, EEXIST
		}
	}
	switch {
	case n.isLink():
		return nil, ELOOP // the View resolved links; the tree changed meanwhile
	case n.isDir() && writing:
		return nil, EISDIR
	case n.isDir():
		return &dirFile{name: name, info: *n.info().named(path.Base(name))}, nil
	}
	if writing && m.journal != nil {
		m.journal.mark(rel)
	}
	if flag&truncFlag != 0 && len(n.data) > 0 {
		m.space.grow(-int64(len(n.data)))
		n.data = nil
		n.changed(m.clock())
	}
	f := &memFile{fs: m, node: n, name: name, flag: flag, rel: rel}
	if m.journal != nil {
		f.jtakes = m.journal.takes
	}
	return f, nil
}

func (m *memFS) mkdir(rel string, perm fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	parent, name, err := m.findParent(rel)
	if err != nil {
		return err
	}
	if parent.kids[name] != nil {
		return EEXIST
	}
	if err := m.space.grow(entryCost); err != nil {
		return err
	}
	now := m.clock()
	parent.add(name, newDirNode(perm.Perm(), now), now)
	m.gen.Add(1)
	m.journalMark(rel)
	return nil
}

func (m *memFS) remove(rel string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	parent, name, err := m.findParent(rel)
	if err != nil {
		return err
	}
	n := parent.kids[name]
	switch {
	case n == nil:
		return ENOENT
	case n.isDir() && len(n.kids) > 0:
		return ENOTEMPTY
	}
	parent.drop(name, m.clock())
	m.gen.Add(1)
	m.journalMark(rel)
	m.unname(n)
	return nil
}

// unname releases one name of n: the node's content only with its last
// name, so the other hard links keep it (caller holds mu for writing).
func (m *memFS) unname(n *memNode) {
	if n.isLink() {
		m.countLinks(-1)
	}
	if n.names > 0 {
		n.names--
		n.changed(n.modTime)
		m.space.grow(-entryCost)
		return
	}
	m.space.grow(-nodeCost(n))
}

// rename follows rename(2): a file may replace a file, a directory may
// replace an empty directory, and a directory cannot move below itself.
func (m *memFS) rename(oldRel, newRel string) error {
	if within("/"+newRel, "/"+oldRel) && newRel != oldRel {
		return EINVAL
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.renameLocked(oldRel, newRel)
}

// renameAt implements generational: the rename happens only if nothing
// was added to or dropped from the tree since gen.
func (m *memFS) renameAt(oldRel, newRel string, gen uint64) error {
	if within("/"+newRel, "/"+oldRel) && newRel != oldRel {
		return EINVAL
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.gen.Load() != gen {
		return errStale
	}
	return m.renameLocked(oldRel, newRel)
}

func (m *memFS) generation() uint64 { return m.gen.Load() }

// renameLocked is rename with mu held for writing.
func (m *memFS) renameLocked(oldRel, newRel string) error {
	oldParent, oldName, err := m.findParent(oldRel)
	if err != nil {
		return err
	}
	n := oldParent.kids[oldName]
	if n == nil {
		return ENOENT
	}
	newParent, newName, err := m.findParent(newRel)
	if err != nil {
		return err
	}
	if existing := newParent.kids[newName]; existing != nil {
		switch {
		case existing == n:
			return nil
		case n.isDir() && !existing.isDir():
			return ENOTDIR
		case !n.isDir() && existing.isDir():
			return EISDIR
		case existing.isDir() && len(existing.kids) > 0:
			return ENOTEMPTY
		}
	}
	now := m.clock()
	if existing := newParent.kids[newName]; existing != nil {
		m.unname(existing) // replaced
	}
	oldParent.drop(oldName, now)
	newParent.add(newName, n, now)
	m.gen.Add(1)
	if m.journal != nil {
		// Every path below both ends changed: the old ones are gone, the
		// new ones came.
		m.journal.markTree(oldRel, n)
		m.journal.markTree(newRel, n)
	}
	return nil
}

func (m *memFS) symlink(target, rel string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	parent, name, err := m.findParent(rel)
	if err != nil {
		return err
	}
	if parent.kids[name] != nil {
		return EEXIST
	}
	if err := m.space.grow(entryCost + int64(len(target))); err != nil {
		return err
	}
	now := m.clock()
	parent.add(name, &memNode{mode: fs.ModeSymlink | linkMode, modTime: now, target: target}, now)
	m.gen.Add(1)
	m.journalMark(rel)
	m.countLinks(1)
	return nil
}

// link gives the file at oldRel a second name newRel: both names share
// one node, so a write through one is seen through the other and removing
// one keeps the other. A durable mount records content by path and could
// not restore the sharing, so there the new name is a copy of the content
// made now, as the ledger will hold it (docs/utilities.md says so).
func (m *memFS) link(oldRel, newRel string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.find(oldRel)
	if err != nil {
		return err
	}
	if n.isDir() {
		return EPERM
	}
	parent, name, err := m.findParent(newRel)
	if err != nil {
		return err
	}
	if parent.kids[name] != nil {
		return EEXIST
	}
	now := m.clock()
	if m.journal != nil {
		if err := m.space.grow(nodeCost(n)); err != nil {
			return err
		}
		dup := &memNode{mode: n.mode, modTime: n.modTime, target: n.target, data: append([]byte(nil), n.data...)}
		parent.add(name, dup, now)
	} else {
		if err := m.space.grow(entryCost); err != nil {
			return err
		}
		n.names++
		n.changed(n.modTime)
		parent.add(name, n, now)
	}
	m.gen.Add(1)
	m.journalMark(newRel)
	if n.isLink() {
		m.countLinks(1)
	}
	return nil
}

// countLinks keeps the mount's and the VFS's link counts.
func (m *memFS) countLinks(delta int64) {
	m.links.Add(delta)
	if m.allLinks != nil {
		m.allLinks.Add(delta)
	}
}

func (m *memFS) readlink(rel string) (string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, err := m.find(rel)
	if err != nil {
		return "", err
	}
	if !n.isLink() {
		return "", EINVAL
	}
	return n.target, nil
}

func (m *memFS) chmod(rel string, mode fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.find(rel)
	if err != nil {
		return err
	}
	const settable = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky
	n.mode = n.mode&^settable | mode&settable
	n.changed(n.modTime)
	m.journalMark(rel)
	return nil
}

// chtimes keeps no access time: nothing in the VFS reports one.
func (m *memFS) chtimes(rel string, _, mtime time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.find(rel)
	if err != nil {
		return err
	}
	if !mtime.IsZero() {
		n.changed(mtime)
		m.journalMark(rel)
	}
	return nil
}

// journalMark notes that rel changed, on a durable mount (caller holds mu
// for writing).
func (m *memFS) journalMark(rel string) {
	if m.journal != nil {
		m.journal.mark(rel)
	}
}
