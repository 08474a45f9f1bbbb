package vfs

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// devIno is a host file's identity: it survives renames of the file and
// of its ancestors, and every hard link of the file shares it.
type devIno struct{ dev, ino uint64 }

func identity(st *unix.Stat_t) devIno { return devIno{dev: uint64(st.Dev), ino: st.Ino} }

// ownTable describes gatehouse's own host files (the ledger with its
// -wal, -shm and -journal, the REST token, the workspace document) so that
// no host mount ever shows them, whatever path leads there (G-5.6). It is
// immutable once built; Conceal swaps in a new one.
type ownTable struct {
	// files are the identities of the own files that exist: a hard link
	// or a renamed ancestor still leads to one of these.
	files []devIno
	// dirs are the directories that hold own files, by identity, with the
	// names that must never be seen or created there (names of files that
	// do not exist yet, like a WAL SQLite has not made).
	dirs []ownDir
	// ancestors are every directory that holds an own file at any depth:
	// moving or removing one would move the ledger from under gatehouse.
	ancestors []devIno
}

type ownDir struct {
	id       devIno
	names    []string
	prefixes []string // names starting with one of these (temporary token files)
}

func (d *ownDir) hides(name string) bool {
	for _, n := range d.names {
		if n == name {
			return true
		}
	}
	for _, p := range d.prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// hasFile reports whether id is one of the own files.
func (t *ownTable) hasFile(id devIno) bool {
	for _, f := range t.files {
		if f == id {
			return true
		}
	}
	return false
}

// dir returns the own directory with identity id, or nil.
func (t *ownTable) dir(id devIno) *ownDir {
	for i := range t.dirs {
		if t.dirs[i].id == id {
			return &t.dirs[i]
		}
	}
	return nil
}

// mayHide reports whether name is an own name in some own directory: the
// cheap test that decides whether a lookup needs its parent's identity.
func (t *ownTable) mayHide(name string) bool {
	for i := range t.dirs {
		if t.dirs[i].hides(name) {
			return true
		}
	}
	return false
}

func (t *ownTable) isAncestor(id devIno) bool {
	for _, a := range t.ancestors {
		if a == id {
			return true
		}
	}
	return false
}

// ownFiles is the table every host mount of a VFS consults.
type ownFiles struct{ table atomic.Pointer[ownTable] }

func (o *ownFiles) load() *ownTable {
	if o == nil {
		return nil
	}
	return o.table.Load()
}

// Conceal keeps gatehouse's own host files out of every host mount of v:
// each is ENOENT at any path that leads to it, absent from listings, and
// cannot be created, written, renamed, replaced or linked (G-5.6). paths
// are absolute host paths of files, existing or not (a WAL SQLite will
// make later is concealed by name in its directory); a path whose last
// element ends in "*" conceals every name in that directory that starts
// with the text before the star. Files are recognised by device and inode
// and by their directory's identity, so renaming an ancestor or making a
// hard link does not unmask them; moving or removing a directory that
// holds one is refused. Calling Conceal again replaces the set.
func (v *VFS) Conceal(paths ...string) error {
	t := &ownTable{}
	seenAncestor := map[devIno]bool{}
	// The paths share their directories (the ledger and its -wal, -shm,
	// token), so each directory is stat'ed once in this call: at start-up
	// this was 40 stats of the same few directories for every exec.
	dirs := map[string]*devIno{}
	statDir := func(dir string) (devIno, bool) {
		if id, seen := dirs[dir]; seen {
			return *id, id != nil
		}
		var st unix.Stat_t
		if unix.Stat(dir, &st) != nil {
			dirs[dir] = nil
			return devIno{}, false
		}
		id := identity(&st)
		dirs[dir] = &id
		return id, true
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("vfs: conceal %q: not an absolute host path", p)
		}
		p = filepath.Clean(p)
		dir, base := filepath.Split(p)
		dirID, ok := statDir(filepath.Clean(dir))
		if !ok {
			continue // nothing can be there until the directory exists
		}
		d := t.dir(dirID)
		if d == nil {
			t.dirs = append(t.dirs, ownDir{id: dirID})
			d = &t.dirs[len(t.dirs)-1]
		}
		if prefix, ok := strings.CutSuffix(base, "*"); ok {
			d.prefixes = append(d.prefixes, prefix)
		} else {
			d.names = append(d.names, base)
			var st unix.Stat_t
			if unix.Lstat(p, &st) == nil {
				t.files = append(t.files, identity(&st))
			}
			if unix.Stat(p, &st) == nil && !t.hasFile(identity(&st)) {
				t.files = append(t.files, identity(&st)) // the file a link named p leads to
			}
		}
		for a := filepath.Clean(dir); ; a = filepath.Dir(a) {
			if id, ok := statDir(a); ok && !seenAncestor[id] {
				seenAncestor[id] = true
				t.ancestors = append(t.ancestors, id)
			}
			if a == filepath.Dir(a) {
				break
			}
		}
	}
	v.own.table.Store(t)
	return nil
}
