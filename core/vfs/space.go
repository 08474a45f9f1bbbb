package vfs

import (
	"io/fs"
	"sync/atomic"
	"syscall"
)

// Space: memory mounts are bounded by a size, host mounts by a write quota,
// and a line's growth of memory mounts counts against its memory budget
// (G-12.3). A memory mount's content lives in the process: without a bound,
// lines could fill it until the process runs out of memory.

// DefaultMemoryMountSize is the size of a memory mount whose spec names
// none: the sum of its files' sizes, plus a small cost per entry.
const DefaultMemoryMountSize = 1 << 30

// entryCost is what an entry (file, directory, link) costs a memory mount
// beside its content, so a line creating millions of empty files is bounded
// too.
const entryCost = 128

// Errnos of a full mount.
var (
	ENOSPC = syscall.ENOSPC // a memory mount is full
	EDQUOT = syscall.EDQUOT // a host mount's write quota is spent
)

// MemoryCharger is implemented by a Door whose holder accounts the memory
// its operations take: a file opened for writing through a view with such
// a door asks it before a memory mount grows by n bytes. An error refuses
// the growth; the write then fails with it.
type MemoryCharger interface {
	ChargeMemory(n int64) error
}

// space is a memory mount's account: what its content takes now.
type space struct {
	limit int64
	used  atomic.Int64
}

// grow takes n bytes (n may be negative), or fails with ENOSPC when the
// mount would pass its size.
func (s *space) grow(n int64) error {
	if n <= 0 {
		s.used.Add(n)
		return nil
	}
	if n > s.limit || s.used.Add(n) > s.limit { // n first: the sum could overflow
		if n <= s.limit {
			s.used.Add(-n)
		}
		return ENOSPC
	}
	return nil
}

// nodeCost is what a node takes from its mount's space.
func nodeCost(n *memNode) int64 {
	return entryCost + int64(len(n.data)) + int64(len(n.target))
}

// treeCost is what a whole subtree takes.
func treeCost(n *memNode) int64 {
	total := nodeCost(n)
	for _, kid := range n.kids {
		total += treeCost(kid)
	}
	return total
}

// quota is a host mount's write quota: the bytes gatehouse may still write
// into its files.
type quota struct {
	limit int64 // the quota as the spec gave it
	left  atomic.Int64
}

func (q *quota) take(n int64) error {
	if n <= 0 {
		return nil
	}
	if q.left.Add(-n) < 0 {
		q.left.Add(n)
		return EDQUOT
	}
	return nil
}

// quotaFile is a host file opened for writing on a mount with a quota.
type quotaFile struct {
	File
	q *quota
}

func (f *quotaFile) Write(p []byte) (int, error) {
	if err := f.q.take(int64(len(p))); err != nil {
		return 0, &fs.PathError{Op: "write", Path: f.name(), Err: err}
	}
	return f.File.Write(p)
}

// Truncate charges what a file grows by.
func (f *quotaFile) Truncate(size int64) error {
	tr, ok := f.File.(interface{ Truncate(int64) error })
	if !ok {
		return syscall.ENOTSUP
	}
	if info, err := f.File.Stat(); err == nil && size > info.Size() {
		if err := f.q.take(size - info.Size()); err != nil {
			return &fs.PathError{Op: "truncate", Path: f.name(), Err: err}
		}
	}
	return tr.Truncate(size)
}

func (f *quotaFile) name() string {
	if info, err := f.File.Stat(); err == nil {
		return info.Name()
	}
	return ""
}

// Finite reports whether f is a regular file of a memory mount: its reads
// end, and what they return the mount's size already bounds, so a reader
// that stops with the line or charges what it reads may leave it be.
func Finite(f File) bool {
	_, ok := f.(*memFile)
	return ok
}

// spaceUsed is what a memory mount's content takes now (0 for others).
func (m *mount) spaceUsed() int64 {
	if mem, ok := m.b.(*memFS); ok {
		return mem.space.used.Load()
	}
	return 0
}

// settleSpace charges the view's door (when it charges memory) with what
// an operation changed in a memory mount since before: a truncation, a
// removal or a replacing rename gives memory back to whoever freed it, a
// creation takes its entry's cost.
func (v *view) settleSpace(m *mount, before int64) {
	c, ok := v.door.(MemoryCharger)
	if !ok {
		return
	}
	if _, mem := m.b.(*memFS); !mem {
		return
	}
	if d := m.spaceUsed() - before; d != 0 {
		c.ChargeMemory(d)
	}
}

// accountWrites makes a file opened for writing through door pay for what
// it writes: a memory file asks the door (when it charges memory) before
// growing its mount, a host file on a mount with a quota spends it.
func (m *mount) accountWrites(f File, door Door) File {
	switch f := f.(type) {
	case *memFile:
		if c, ok := door.(MemoryCharger); ok {
			f.charge = c.ChargeMemory
		}
		return f
	}
	if m.quota != nil {
		return &quotaFile{File: f, q: m.quota}
	}
	return f
}

// Statfs describes the mount holding name (see FS.Statfs).
func (v *view) Statfs(name string) (Space, error) {
	var r resolved
	err := v.lookup(&r, Op{Name: OpStat}, name, true)
	if err == nil && !r.exists {
		err = r.missing
	}
	if err != nil {
		return Space{}, pathErr("statfs", name, err)
	}
	if r.m == nil { // the synthetic tree above the mounts
		return Space{Mount: "/", Kind: "workspace", ReadOnly: true, Known: true}, nil
	}
	return v.describe(r.m), nil
}

// Spaces describes every mount whose mount point the door lets a stat
// see (a hidden mount is not named, G-4.5).
func (v *view) Spaces() []Space {
	var out []Space
	for _, m := range v.vfs.mounts {
		if _, err := v.Stat(m.prefix); err != nil {
			continue
		}
		out = append(out, v.describe(m))
	}
	return out
}

// describe is m's Space as the view's door may show it. What a mount
// holds counts every file in it, so where a rule or a hook may keep
// something below the mount point from the session (hidden, or a file
// only another profile sees), its size and use are not given, as for a
// host mount without a quota: the figures would tell hidden bytes from
// none (G-4.5). A door that cannot say (not a CarryDoor) gives none.
func (v *view) describe(m *mount) Space {
	s := m.describe()
	if !s.Known || s.Kind == "dev" || v.open {
		return s
	}
	if cd, ok := v.door.(CarryDoor); ok && cd.CarryClear(m.prefix, m.prefix) {
		return s
	}
	s.Known, s.Size, s.Used = false, 0, 0
	return s
}

// describe is a mount's Space.
func (m *mount) describe() Space {
	s := Space{Mount: m.prefix, ReadOnly: m.readOnly, Kind: "host"}
	switch b := m.b.(type) {
	case *memFS:
		s.Kind, s.Known = "memory", true
		// The root's own entry is not content: an empty mount is empty.
		s.Size, s.Used = b.space.limit, max(b.space.used.Load()-entryCost, 0)
	case *devFS:
		s.Kind, s.Known = "dev", true
	default:
		if m.quota != nil {
			s.Known = true
			s.Size = m.quota.limit
			s.Used = m.quota.limit - m.quota.left.Load()
		}
	}
	return s
}
