package git

import (
	"encoding/binary"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// abbrev is the short form of an object id, as long as git's default
// abbreviation in this repository (abbrevLen).
func (r *repo) abbrev(h plumbing.Hash) string { return h.String()[:r.abbrevLen()] }

// abbrevLen is git's default abbreviation length: core.abbrev when it is
// a number, else ("auto" or unset) one that grows with the repository as
// git 2.39 computes it: the packed objects counted from the packs' index
// fan-out tables, half the bits of that count rounded up, in hex digits,
// never fewer than 7. A small repository (under 16384 packed objects)
// gets 7, a clone of a project with a long history 8 or more.
func (r *repo) abbrevLen() int {
	if r.abbrevN > 0 {
		return r.abbrevN
	}
	n := 7
	if v, ok := r.cfg.get("core.abbrev"); ok && v != "auto" {
		if i, err := strconv.Atoi(v); err == nil {
			n = max(4, min(i, 40))
		}
	} else {
		bits := 0
		for c := r.packedObjects(); c > 1; c >>= 1 {
			bits++
		}
		n = max(7, (bits+2)/2)
	}
	r.abbrevN = n
	return n
}

// packedObjects is the number of objects the repository's packs hold, read
// from the last entry of each pack index's fan-out table (git's
// approximate object count; loose objects are not counted, as git does not).
func (r *repo) packedObjects() uint64 {
	dir := path.Join(r.gitDir, "objects", "pack")
	entries, err := r.g.gitfs.ReadDir(dir)
	if err != nil {
		return 0
	}
	var total uint64
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok {
			continue
		}
		// git leaves out an index whose pack is not there.
		if _, err := r.g.gitfs.Stat(path.Join(dir, base+".pack")); err != nil {
			continue
		}
		total += idxObjects(r, path.Join(dir, e.Name()))
	}
	return total
}

// idxObjects reads a version 2 pack index's object count (the fan-out
// table's last entry); anything else counts as none.
func idxObjects(r *repo, name string) uint64 {
	f, err := r.g.gitfs.Open(name)
	if err != nil {
		return 0
	}
	defer f.Close()
	var head [8 + 256*4]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return 0
	}
	if string(head[:4]) != "\xfftOc" || binary.BigEndian.Uint32(head[4:8]) != 2 {
		return 0
	}
	return uint64(binary.BigEndian.Uint32(head[8+255*4:]))
}

// abbrevZero is the all-zero id at the abbreviation's length, as git
// writes a missing side in a diff's index line.
func (r *repo) abbrevZero() string { return strings.Repeat("0", r.abbrevLen()) }
