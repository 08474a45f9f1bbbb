package vfs

import (
	"encoding/binary"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// readDir implements backend.
func (h *hostFS) readDir(rel string) ([]fs.DirEntry, error) { return h.readDirWith(rel, false) }

// readDirInfo implements infoLister.
func (h *hostFS) readDirInfo(rel string) ([]fs.DirEntry, error) { return h.readDirWith(rel, true) }

func (h *hostFS) readDirWith(rel string, withInfo bool) ([]fs.DirEntry, error) {
	fd, err := h.openBeneath(rel, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, hostErr(err)
	}
	defer unix.Close(fd)
	return h.list(fd, rel, withInfo)
}

// openDir is ReadDir's path without a separate walk: the directory is
// opened at once (O_DIRECTORY, so nothing else is ever opened) and the
// View judges it before its entries are read. ok is false when the
// general path must answer.
func (h *hostFS) openDir(rel string) (dirLister, bool) {
	fd, err := h.openBeneath(rel, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, false
	}
	if rel != "" {
		var st unix.Stat_t
		if fstat(fd, &st) != nil || h.mayBeOwn(&st, rel) {
			unix.Close(fd)
			return nil, false
		}
	}
	return &hostDirHandle{h: h, fd: fd, rel: rel}, true
}

// hostDirHandle is a directory opened by openDir, listed at most once.
type hostDirHandle struct {
	h   *hostFS
	fd  int
	rel string
}

func (d *hostDirHandle) list(withInfo bool) ([]fs.DirEntry, error) {
	return d.h.list(d.fd, d.rel, withInfo)
}
func (d *hostDirHandle) close() { unix.Close(d.fd) }

// listScratch is what a listing needs only while it is made, kept
// between listings: the getdents64 buffer, the entries as read, their
// names, and the sort's keys. A walk lists thousands of directories, and
// growing these afresh for each was most of what it allocated.
type listScratch struct {
	buf   []byte
	raw   []rawDirent
	arena []byte
	keys  []uint64
	spare []uint64 // the radix sort's second buffer
}

var listScratches = sync.Pool{New: func() any { return &listScratch{buf: make([]byte, 32<<10)} }}

// release returns the scratch for the next listing, unless a huge
// directory grew it: that memory goes back to the collector.
func (s *listScratch) release() {
	if cap(s.arena) > 1<<20 || cap(s.raw) > 1<<16 || cap(s.keys) > 1<<16 || cap(s.spare) > 1<<16 {
		return
	}
	s.raw, s.arena, s.keys, s.spare = s.raw[:0], s.arena[:0], s.keys[:0], s.spare[:0]
	listScratches.Put(s)
}

// rawDirent is one entry as getdents64 gave it; its name is kept in a
// shared byte arena until the listing is complete.
type rawDirent struct {
	ino       uint64
	off, size uint32 // the name in the arena
	typ       uint8
}

// list reads the whole directory open as fd with getdents64 and keeps,
// for each entry, its name and the type the directory records (d_type):
// a listing costs no syscall per entry, and find -type or grep -r decide
// from the type alone. Entries gatehouse conceals are left out: its own
// files (by name in their directory, by inode anywhere) and links that
// would lead outside the mount (G-5.6); a link costs one readlinkat.
// Every name shares one string, so a listing makes a handful of
// allocations whatever its size. withInfo takes each entry's lstat too,
// with fstatat against fd: one syscall per entry and no lookup from the
// root, since the directory is open for this listing anyway.
func (h *hostFS) list(fd int, rel string, withInfo bool) ([]fs.DirEntry, error) {
	pace()
	own := h.own.load()
	var ownDir *ownDir
	var dirDev uint64
	if own != nil {
		var st unix.Stat_t
		if err := fstat(fd, &st); err != nil {
			return nil, err
		}
		ownDir, dirDev = own.dir(identity(&st)), uint64(st.Dev)
	}
	scratch := listScratches.Get().(*listScratch)
	defer scratch.release()
	buf, arena, raw := scratch.buf, scratch.arena, scratch.raw
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			break
		}
		for off := 0; off+19 <= n; {
			ino := binary.NativeEndian.Uint64(buf[off:])
			reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
			typ := buf[off+18]
			// The record is padded to eight bytes after the name's NUL
			// (the padding is not zeroed), so the NUL is among the last
			// eight bytes: look there, not along the whole name.
			end := max(off+19, off+reclen-8)
			for end < off+reclen && buf[end] != 0 {
				end++
			}
			name := buf[off+19 : end]
			off += reclen
			if isDots(name) {
				continue
			}
			if own != nil && (own.hasFile(devIno{dirDev, ino}) ||
				ownDir != nil && ownDir.hides(unsafe.String(unsafe.SliceData(name), len(name)))) {
				continue
			}
			raw = append(raw, rawDirent{ino: ino, off: uint32(len(arena)), size: uint32(len(name)), typ: typ})
			arena = append(arena, name...)
		}
	}
	scratch.raw, scratch.arena = raw, arena
	names := string(arena)
	shared := &hostDir{h: h, rel: rel}
	entries := make([]hostDirEntry, 0, len(raw))
	for _, r := range raw {
		e := hostDirEntry{name: names[r.off : r.off+r.size], dir: shared}
		typ, ok := h.entryType(fd, rel, e.name, r.typ)
		if !ok {
			continue // vanished, or a link that leaves the mount
		}
		e.typ = typ
		entries = append(entries, e)
	}
	if withInfo {
		entries = h.takeInfo(fd, entries)
	}
	return sortedEntries(entries, scratch), nil
}

// sortedEntries points a DirEntry at each entry in name order. It sorts
// numbers, not the entries: an entry holds pointers, and every swap of one
// would pay the garbage collector's write barriers, and a comparison
// function called through a pointer costs more than the numbers' own
// comparison. Each number is six bytes of the name, taken just after the
// prefix every name in the directory shares (a tree's files are often
// f0001.txt, f0002.txt, ...), over the entry's index in the low 16 bits;
// names whose six bytes are the same are then put in order by the whole
// name. A name holds no NUL, so zero padding orders a shorter name first.
// tmpfs lists in creation order and trees are often written in name order
// (a git checkout, an archive), so one pass first sees whether there is
// anything to sort.
func sortedEntries(entries []hostDirEntry, scratch *listScratch) []fs.DirEntry {
	out := make([]fs.DirEntry, len(entries))
	if len(entries) > 1<<16 {
		order := make([]int, len(entries))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(entries[a].name, entries[b].name) })
		for i, j := range order {
			out[i] = &entries[j]
		}
		return out
	}
	shared := sharedPrefixLen(entries)
	keys := scratch.keys[:0]
	for i := range entries {
		keys = append(keys, nameWindow(entries[i].name, shared)<<16|uint64(i))
	}
	const index = 1<<16 - 1
	if !slices.IsSorted(keys) {
		if len(keys) >= radixMin {
			keys = radixSortWindows(keys, &scratch.spare)
		} else {
			slices.Sort(keys)
		}
	}
	scratch.keys = keys
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j]>>16 == keys[i]>>16 {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(keys[i:j], func(a, b uint64) int {
				return strings.Compare(entries[a&index].name, entries[b&index].name)
			})
		}
		i = j
	}
	for i, k := range keys {
		out[i] = &entries[k&index]
	}
	return out
}

// radixMin is the smallest listing radixSortWindows sorts: below it a
// comparison sort's few steps cost less than the radix sort's counters.
const radixMin = 48

// radixSortWindows orders keys by their name windows (the upper 48 bits),
// an entry's index (the lower 16) breaking ties: a least-significant-byte
// radix sort that takes a pass only for the bytes in which some window
// differs from the first. A tree's names tend to differ in a byte or two
// of the window (f0050042.txt beside f0050017.txt), so a listing of a
// hundred takes two passes over it where a comparison sort takes ~700
// unpredictable branches. The sort is stable and the keys are built in
// index order, so equal windows keep index order, as the comparison sort
// of whole keys gave. spare is the scratch for the second buffer; the
// result is keys or spare's slice.
func radixSortWindows(keys []uint64, spare *[]uint64) []uint64 {
	var differ uint64
	for _, k := range keys[1:] {
		differ |= k ^ keys[0]
	}
	if cap(*spare) < len(keys) {
		*spare = make([]uint64, len(keys))
	}
	src, dst := keys, (*spare)[:len(keys)]
	for shift := 16; shift < 64; shift += 8 {
		if byte(differ>>shift) == 0 {
			continue
		}
		var at [256]uint32
		for _, k := range src {
			at[byte(k>>shift)]++
		}
		sum := uint32(0)
		for b, c := range at {
			at[b] = sum
			sum += c
		}
		for _, k := range src {
			b := byte(k >> shift)
			dst[at[b]] = k
			at[b]++
		}
		src, dst = dst, src
	}
	*spare = dst[:0]
	return src
}

// sharedPrefixLen is how many leading bytes every entry's name shares.
func sharedPrefixLen(entries []hostDirEntry) int {
	if len(entries) == 0 {
		return 0
	}
	first := entries[0].name
	n := len(first)
	for i := 1; i < len(entries) && n > 0; i++ {
		name := entries[i].name
		m := min(n, len(name))
		j := 0
		for j < m && name[j] == first[j] {
			j++
		}
		n = j
	}
	return n
}

// nameWindow is name's six bytes from offset from, big-endian, zero-padded.
func nameWindow(name string, from int) uint64 {
	var w uint64
	for i := from; i < from+6; i++ {
		w <<= 8
		if i < len(name) {
			w |= uint64(name[i])
		}
	}
	return w
}

// takeInfo fills each entry's lstat from the open directory, dropping
// those that vanished since getdents.
func (h *hostFS) takeInfo(dir int, entries []hostDirEntry) []hostDirEntry {
	infos := make([]fileInfo, len(entries))
	kept := entries[:0]
	for i, e := range entries {
		var st unix.Stat_t
		if ignoringEINTR(func() error { return fstatat(dir, e.name, &st, unix.AT_SYMLINK_NOFOLLOW) }) != nil {
			continue
		}
		infos[i] = infoFromStat(&st)
		infos[i].name = e.name
		e.typ, e.info = infos[i].mode.Type(), &infos[i]
		kept = append(kept, e)
	}
	return kept
}

// entryType turns a d_type into a mode type. An unknown type (filesystems
// that record none) costs an lstat; a link costs a readlinkat, and one
// that would leave the mount is not listed.
func (h *hostFS) entryType(dir int, rel, name string, dtype uint8) (fs.FileMode, bool) {
	switch dtype {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	default:
		var st unix.Stat_t
		if ignoringEINTR(func() error { return fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) }) != nil {
			return 0, false
		}
		if st.Mode&unix.S_IFMT != unix.S_IFLNK {
			return infoFromStat(&st).mode.Type(), true
		}
	}
	target, err := readlinkFD(dir, name)
	if err != nil || h.escapes(joinRel(rel, name), target) {
		return 0, false
	}
	return fs.ModeSymlink, true
}

func isDots(name []byte) bool {
	return len(name) == 1 && name[0] == '.' || len(name) == 2 && name[0] == '.' && name[1] == '.'
}

// joinRel joins a path inside the mount ("" for its root) and a name.
func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// hostDir is what a listing's entries share.
type hostDir struct {
	h   *hostFS
	rel string
}

// hostDirEntry is an entry of a host listing: its name and the type the
// directory recorded. Info takes the lstat when asked, looked up again
// below the root, since no directory descriptor outlives the listing,
// unless ReadDirInfo took it with the listing.
type hostDirEntry struct {
	name string
	typ  fs.FileMode
	dir  *hostDir
	info *fileInfo // taken with the listing (ReadDirInfo), or nil
}

func (e *hostDirEntry) Name() string      { return e.name }
func (e *hostDirEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *hostDirEntry) Type() fs.FileMode { return e.typ }
func (e *hostDirEntry) String() string    { return fs.FormatDirEntry(e) }

func (e *hostDirEntry) Info() (fs.FileInfo, error) {
	if e.info != nil {
		return e.info, nil
	}
	r := e.dir.h.walk(joinRel(e.dir.rel, e.name), false)
	if !r.exists {
		// A link where the listed directory was (a host process swapped
		// it since) leaves the entry gone as well.
		err := r.missing
		if err == nil {
			err = ENOENT
		}
		return nil, pathErr("lstat", e.name, err)
	}
	return r.info, nil
}
