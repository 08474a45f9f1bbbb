package vfs

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// Durable memory mounts (G-5.6). A workspace keeps its memory mounts in
// its ledger: the VFS journals which paths of each durable mount changed,
// hands them over as Entries (Changes) for the ledger to save at the end
// of a line, and lays Entries saved elsewhere over a mount (Apply), at
// open and whenever another process saved some. This file is the VFS's
// half; package core moves Entries to and from the ledger.

// EntryKind is what a path of a memory mount is, for Entries.
type EntryKind string

// The kinds of an Entry.
const (
	EntryFile EntryKind = "file" // a regular file, with its content
	EntryDir  EntryKind = "dir"  // a directory
	EntryLink EntryKind = "link" // a symbolic link, with its target
	EntryGone EntryKind = "gone" // nothing: removed
)

// Entry is one path of a memory mount as it stands: what Changes hands
// over and Apply lays down.
type Entry struct {
	Path    string // inside the mount: slash-separated, no leading slash
	Kind    EntryKind
	Mode    fs.FileMode // permission and special bits
	ModTime time.Time
	Data    []byte // a file's content (a copy: the caller may keep it)
	Target  string // a link's target, as written
}

// WithJournal makes the VFS journal the changes of every memory mount not
// marked Ephemeral, for Changes. Without it nothing is journaled, and a
// write costs nothing more.
func WithJournal() Option { return func(v *VFS) { v.journaled = true } }

// journal is the set of paths of one memory mount changed since they
// were last taken (caller holds the mount's lock for writing).
type journal struct {
	paths map[string]struct{}
	// takes counts Changes calls, so an open file marks its path once
	// per take rather than on every write.
	takes uint64
	// pending is set while paths is not empty: Changes of a mount with
	// nothing to hand over takes no lock.
	pending atomic.Bool
}

// mark notes that rel changed (caller holds the mount's write lock).
func (j *journal) mark(rel string) {
	if rel == "" {
		return // the mount's root: it is always there
	}
	j.paths[rel] = struct{}{}
	j.pending.Store(true)
}

// markTree notes every path of the subtree n at rel (a rename moves them
// all).
func (j *journal) markTree(rel string, n *memNode) {
	j.mark(rel)
	for name, kid := range n.kids {
		j.markTree(rel+"/"+name, kid)
	}
}

// DurableMounts lists the prefixes of the journaled memory mounts, sorted.
func (v *VFS) DurableMounts() []string {
	var out []string
	for _, m := range v.mounts {
		if mem, ok := m.b.(*memFS); ok && mem.journal != nil {
			out = append(out, m.prefix)
		}
	}
	return out
}

// durable returns the journaled memory mount at prefix.
func (v *VFS) durable(prefix string) (*memFS, error) {
	for _, m := range v.mounts {
		if m.prefix == prefix {
			if mem, ok := m.b.(*memFS); ok && mem.journal != nil {
				return mem, nil
			}
			break
		}
	}
	return nil, fmt.Errorf("vfs: %s is not a durable memory mount", prefix)
}

// Changes hands over the paths of the durable mount at prefix that changed
// since the last call, each as it stands now (EntryGone when it no longer
// exists), sorted by path, and empties the journal. A caller that fails to
// keep them gives them back with Rejournal.
func (v *VFS) Changes(prefix string) ([]Entry, error) {
	m, err := v.durable(prefix)
	if err != nil {
		return nil, err
	}
	if !m.journal.pending.Load() {
		return nil, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	j := m.journal
	out := make([]Entry, 0, len(j.paths))
	for rel := range j.paths {
		out = append(out, m.entryAt(rel))
	}
	clear(j.paths)
	j.takes++
	j.pending.Store(false)
	sort.Slice(out, func(a, b int) bool { return out[a].Path < out[b].Path })
	return out, nil
}

// entryAt describes rel as it stands (caller holds mu).
func (m *memFS) entryAt(rel string) Entry {
	n, err := m.find(rel)
	if err != nil {
		return Entry{Path: rel, Kind: EntryGone, ModTime: m.clock()}
	}
	e := Entry{Path: rel, Mode: n.mode &^ fs.ModeType, ModTime: n.modTime}
	switch {
	case n.isDir():
		e.Kind = EntryDir
	case n.isLink():
		e.Kind, e.Target = EntryLink, n.target
	default:
		e.Kind, e.Data = EntryFile, append([]byte{}, n.data...)
	}
	return e
}

// Rejournal puts paths back into the journal of the durable mount at
// prefix: changes Changes handed over that were not kept.
func (v *VFS) Rejournal(prefix string, paths []string) {
	m, err := v.durable(prefix)
	if err != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range paths {
		m.journal.mark(p)
	}
}

// Apply lays entries over the durable mount at prefix: each path becomes
// what its entry says, directories on the way are made, and a gone entry
// removes its path (a directory only once it is empty, so that nothing
// the entries do not name is lost). A path the journal holds is passed
// over: a change this process has not yet handed over is newer than any
// saved elsewhere, and will overwrite it when saved (the last line to end
// wins, per path). Applied content counts against the mount's size but is
// never refused for it: it was written already.
func (v *VFS) Apply(prefix string, entries []Entry) error {
	m, err := v.durable(prefix)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Path == "" || strings.HasPrefix(e.Path, "/") || strings.Contains("/"+e.Path+"/", "/../") || strings.Contains("/"+e.Path+"/", "/./") {
			return fmt.Errorf("vfs: mount %s: entry %q is not a path inside the mount", prefix, e.Path)
		}
	}
	creates := make([]Entry, 0, len(entries))
	var gones []Entry
	for _, e := range entries {
		if e.Kind == EntryGone {
			gones = append(gones, e)
		} else {
			creates = append(creates, e)
		}
	}
	// Parents before children; children removed before their parents.
	sort.Slice(creates, func(a, b int) bool { return creates[a].Path < creates[b].Path })
	sort.Slice(gones, func(a, b int) bool { return gones[a].Path > gones[b].Path })
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range creates {
		if _, held := m.journal.paths[e.Path]; !held {
			m.put(e)
		}
	}
	for _, e := range gones {
		if _, held := m.journal.paths[e.Path]; !held {
			m.unput(e)
		}
	}
	return nil
}

// put makes rel what e says (caller holds mu for writing).
func (m *memFS) put(e Entry) {
	dir := m.root
	comps := strings.Split(e.Path, "/")
	for _, name := range comps[:len(comps)-1] {
		child := dir.kids[name]
		if child == nil || !child.isDir() {
			child = newDirNode(seedDirMode, e.ModTime)
			m.replace(dir, name, child, e.ModTime)
		}
		dir = child
	}
	name := comps[len(comps)-1]
	old := dir.kids[name]
	perm := e.Mode & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	switch e.Kind {
	case EntryDir:
		if old != nil && old.isDir() {
			old.mode = fs.ModeDir | perm
			old.changed(e.ModTime)
			return
		}
		m.replace(dir, name, &memNode{mode: fs.ModeDir | perm, modTime: e.ModTime, kids: map[string]*memNode{}}, e.ModTime)
	case EntryFile:
		if old != nil && !old.isDir() && !old.isLink() {
			// In place: a file open elsewhere sees the new content, as
			// when another process rewrites a file on disk.
			m.space.used.Add(int64(len(e.Data)) - int64(len(old.data)))
			old.data = append([]byte(nil), e.Data...)
			old.mode = perm
			old.changed(e.ModTime)
			return
		}
		m.replace(dir, name, &memNode{mode: perm, modTime: e.ModTime, data: append([]byte(nil), e.Data...)}, e.ModTime)
	case EntryLink:
		m.replace(dir, name, &memNode{mode: fs.ModeSymlink | linkMode, modTime: e.ModTime, target: e.Target}, e.ModTime)
	}
}

// unput removes what a gone entry names, unless it is a directory that
// still holds entries (caller holds mu for writing).
func (m *memFS) unput(e Entry) {
	parent, name, err := m.findParent(e.Path)
	if err != nil {
		return
	}
	n := parent.kids[name]
	if n == nil || (n.isDir() && len(n.kids) > 0) {
		return
	}
	m.forget(n)
	parent.drop(name, e.ModTime)
	m.gen.Add(1)
}

// replace puts n at dir/name in place of whatever was there, keeping the
// mount's space and link counts (caller holds mu for writing).
func (m *memFS) replace(dir *memNode, name string, n *memNode, now time.Time) {
	if old := dir.kids[name]; old != nil {
		m.forget(old)
	}
	dir.add(name, n, now)
	m.space.used.Add(nodeCost(n))
	if n.isLink() {
		m.countLinks(1)
	}
	m.gen.Add(1)
}

// forget takes a subtree that leaves the tree out of the mount's space and
// link counts.
func (m *memFS) forget(n *memNode) {
	m.space.used.Add(-treeCost(n))
	if links := treeLinks(n); links > 0 {
		m.countLinks(-links)
	}
}

func treeLinks(n *memNode) int64 {
	var links int64
	if n.isLink() {
		links++
	}
	for _, kid := range n.kids {
		links += treeLinks(kid)
	}
	return links
}

// Reseed returns the durable mount at prefix to its seed: every change is
// dropped, the journal's too (gatehouse reset --mounts).
func (v *VFS) Reseed(prefix string) error {
	m, err := v.durable(prefix)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.forget(m.root)
	m.root = newDirNode(seedDirMode, m.clock())
	m.gen.Add(1)
	clear(m.journal.paths)
	m.journal.pending.Store(false)
	return m.seed(m.seedFiles)
}
