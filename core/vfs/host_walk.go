package vfs

import (
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// concealedEntry is what a walk reports for gatehouse's own files and for
// links that would lead outside the mount: a name that does not exist in
// a directory that does, so every op answers as for a missing file, and
// the backend refuses to create it (EACCES, as G-4.11 has it for hidden
// names).
var concealedEntry = walkResult{missing: ENOENT, parentOK: true}

// walk implements backend: one openat2 (O_PATH, no symlink followed)
// and one fstat for the whole path. A link anywhere on the way makes
// openat2 fail; the component walk then finds the first one for the View.
func (h *hostFS) walk(rel string, follow bool) walkResult {
	if rel == "" {
		var st unix.Stat_t
		if err := fstat(h.root, &st); err != nil {
			return walkResult{missing: err}
		}
		return walkResult{info: infoFromStat(&st).named(""), exists: true, parentOK: true}
	}
	fd, err := h.openBeneath(rel, unix.O_PATH, 0)
	if err != nil {
		// A link on the way (ELOOP), a missing name, a file used as a
		// directory: the component walk says which component and how.
		return h.walkComponents(rel, follow)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		return walkResult{missing: err}
	}
	return h.found(fd, &st, rel, follow, nil)
}

// walkComponents looks rel up one name at a time from the root, each name
// opened O_PATH|O_NOFOLLOW below the descriptor of the directory before
// it, and stops at the first link it would have to follow.
func (h *hostFS) walkComponents(rel string, follow bool) walkResult {
	dir, dirID := h.root, h.rootID
	defer func() {
		if dir != h.root {
			unix.Close(dir)
		}
	}()
	for start := 0; ; {
		end := start + indexOrLen(rel[start:], '/')
		last := end == len(rel)
		fd, err := openat(dir, rel[start:end], unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return walkResult{missing: err, parentOK: last && err == unix.ENOENT}
		}
		var st unix.Stat_t
		if err := fstat(fd, &st); err != nil {
			unix.Close(fd)
			return walkResult{missing: err}
		}
		if last {
			r := h.found(fd, &st, rel, follow, &dirID)
			unix.Close(fd)
			return r
		}
		if st.Mode&unix.S_IFMT == unix.S_IFLNK {
			// A link in the middle: the View judges it and resolves it
			// (one that leaves the mount leads nowhere there).
			target, err := readlinkFD(fd, "")
			unix.Close(fd)
			if err != nil {
				return walkResult{missing: err}
			}
			return walkResult{linkEnd: end, target: filepath.ToSlash(target), parentOK: true}
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			concealed := h.concealed(fd, &st, rel[:end], &dirID)
			unix.Close(fd)
			if concealed {
				return walkResult{missing: ENOENT}
			}
			return walkResult{missing: ENOTDIR}
		}
		if dir != h.root {
			unix.Close(dir)
		}
		dir, dirID = fd, identity(&st)
		start = end + 1
	}
}

func indexOrLen(s string, c byte) int {
	if i := strings.IndexByte(s, c); i >= 0 {
		return i
	}
	return len(s)
}

// found is a walk's answer for the entry at rel, open as fd with lstat st.
// parent is the identity of rel's directory when the caller knows it.
func (h *hostFS) found(fd int, st *unix.Stat_t, rel string, follow bool, parent *devIno) walkResult {
	if h.ownEntry(st, rel, parent) {
		return concealedEntry
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		target, err := readlinkFD(fd, "")
		if err != nil {
			return walkResult{missing: err}
		}
		target = filepath.ToSlash(target)
		if h.escapes(rel, target) {
			return concealedEntry // followed or not: it is not there
		}
		if follow {
			return walkResult{linkEnd: len(rel), target: target, parentOK: true}
		}
	}
	_, name := splitRel(rel)
	return walkResult{info: infoFromStat(st).named(name), exists: true, parentOK: true}
}

// concealed reports whether the entry at rel (open as fd, lstat st) is
// one of gatehouse's own files or a link that leads outside the mount.
func (h *hostFS) concealed(fd int, st *unix.Stat_t, rel string, parent *devIno) bool {
	if h.ownEntry(st, rel, parent) {
		return true
	}
	if st.Mode&unix.S_IFMT != unix.S_IFLNK {
		return false
	}
	target, err := readlinkFD(fd, "")
	return err == nil && h.escapes(rel, filepath.ToSlash(target))
}

// ownEntry reports whether the entry at rel with lstat st is an own file:
// by identity, or by name in an own directory (a file SQLite made anew).
func (h *hostFS) ownEntry(st *unix.Stat_t, rel string, parent *devIno) bool {
	own := h.own.load()
	if own == nil {
		return false
	}
	if own.hasFile(identity(st)) {
		return true
	}
	_, name := splitRel(rel)
	if !own.mayHide(name) {
		return false
	}
	id, ok := h.parentID(rel, parent)
	if !ok {
		return true // cannot tell: err on the side of hiding an own-looking name
	}
	d := own.dir(id)
	return d != nil && d.hides(name)
}

// parentID is the identity of rel's directory.
func (h *hostFS) parentID(rel string, known *devIno) (devIno, bool) {
	if known != nil {
		return *known, true
	}
	dir, _ := splitRel(rel)
	if dir == "" {
		return h.rootID, true
	}
	fd, err := h.openBeneath(dir, unix.O_PATH|unix.O_DIRECTORY, 0)
	if err != nil {
		return devIno{}, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if fstat(fd, &st) != nil {
		return devIno{}, false
	}
	return identity(&st), true
}

// escapes reports whether a link at rel with this target would lead
// outside the host directory (G-5.6): an absolute target elsewhere than
// the directory, or a relative one that climbs above it on the way.
func (h *hostFS) escapes(rel, target string) bool {
	if target == "" {
		return false // leads nowhere, like a dangling link
	}
	if target[0] == '/' {
		t := path.Clean(target)
		for _, s := range h.spellings {
			if within(t, s) {
				return false
			}
		}
		return true
	}
	return climbsOut(strings.Count(rel, "/"), target)
}

// concealedIn reports whether name in the directory open as dir (at rel,
// which names the entry) is concealed; a missing name is not.
func (h *hostFS) concealedIn(dir int, rel string) bool {
	_, name := splitRel(rel)
	fd, err := openat(dir, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	var st, dirSt unix.Stat_t
	if fstat(fd, &st) != nil || fstat(dir, &dirSt) != nil {
		return false
	}
	id := identity(&dirSt)
	return h.concealed(fd, &st, rel, &id)
}

// ownNameIn reports whether creating name in dir would make one of
// gatehouse's own files (a WAL, a token) under an agent's hand.
func (h *hostFS) ownNameIn(dir int, rel string) bool {
	own := h.own.load()
	_, name := splitRel(rel)
	if own == nil || !own.mayHide(name) {
		return false
	}
	var st unix.Stat_t
	if fstat(dir, &st) != nil {
		return true
	}
	d := own.dir(identity(&st))
	return d != nil && d.hides(name)
}

// ownAncestorIn reports whether the entry name in dir holds own files.
func (h *hostFS) ownAncestorIn(dir int, rel string) bool {
	own := h.own.load()
	if own == nil {
		return false
	}
	_, name := splitRel(rel)
	var st unix.Stat_t
	if ignoringEINTR(func() error { return fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) }) != nil {
		return false
	}
	return own.isAncestor(identity(&st))
}

// openable reports whether the host may open an entry of this type: a
// regular file or a directory; never a FIFO, socket or device (G-5.6).
func openable(st *unix.Stat_t) bool {
	t := st.Mode & unix.S_IFMT
	return t == unix.S_IFREG || t == unix.S_IFDIR
}

// openRead is the read path without a separate walk: it opens rel at once
// (after an lstat that tells a FIFO or a device from a file, so a blocked
// writer is never woken) and the View judges the path before the first
// byte is read. ok is false whenever the general path must answer: a link
// on the way, a missing or special entry, an own-looking name, an error.
// The lstat may pass through a link in the middle of rel (fstatat follows
// those); it decides only whether to try, and openat2, which follows
// none, then fails. The fstat after the open checks that the file opened
// is the one the lstat saw. With listedRegular (OListedRegular) the lstat
// is skipped: the caller's listing just said "regular file", and only a
// host process racing the walk could have put a FIFO there since; the
// fstat still refuses it.
func (h *hostFS) openRead(rel, name string, listedRegular bool) (File, bool) {
	if rel == "" {
		return nil, false
	}
	pace()
	var st unix.Stat_t
	if !listedRegular {
		if fstatat(h.root, rel, &st, unix.AT_SYMLINK_NOFOLLOW|unix.AT_NO_AUTOMOUNT) != nil || !openable(&st) {
			return nil, false
		}
	}
	fd, err := h.openBeneath(rel, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, false
	}
	var opened unix.Stat_t
	if fstat(fd, &opened) != nil || !openable(&opened) || h.mayBeOwn(&opened, rel) ||
		(!listedRegular && identity(&opened) != identity(&st)) {
		unix.Close(fd)
		return nil, false
	}
	return newHostFile(fd, name, &opened), true
}

// mayBeOwn is ownEntry without the parent's identity: true for an own
// file and for any own-looking name, which the general path then settles.
func (h *hostFS) mayBeOwn(st *unix.Stat_t, rel string) bool {
	own := h.own.load()
	if own == nil {
		return false
	}
	_, name := splitRel(rel)
	return own.hasFile(identity(st)) || own.mayHide(name)
}

// openFile implements backend, after the View resolved and judged rel. An
// O_PATH probe comes first: a special file is refused before anything
// opens it, an own file or a concealed link is neither opened nor created
// over. The real open follows no link either; an fstat then checks its
// type again, in case a host process swapped the entry meanwhile.
func (h *hostFS) openFile(rel string, flag int, perm fs.FileMode, name string) (File, error) {
	create := flag&createFlag != 0
	if err := h.probeForOpen(rel, create); err != nil {
		return nil, err
	}
	if flag&truncFlag != 0 {
		wroteHost()
	}
	fd, err := h.openBeneath(rel, flag|unix.O_NONBLOCK|unix.O_NOCTTY, uint32(perm.Perm()))
	if err != nil {
		if create && (err == unix.EEXIST || err == unix.ELOOP) && h.concealedAt(rel) {
			return nil, EACCES
		}
		return nil, hostErr(err)
	}
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, err
	}
	if !openable(&st) {
		unix.Close(fd)
		return nil, EACCES
	}
	if h.ownEntry(&st, rel, nil) {
		unix.Close(fd)
		return nil, ENOENT
	}
	return newHostFile(fd, name, &st), nil
}

// probeForOpen looks at rel without opening it for I/O.
func (h *hostFS) probeForOpen(rel string, create bool) error {
	refuse := ENOENT
	if create {
		refuse = EACCES
	}
	fd, err := h.openBeneath(rel, unix.O_PATH, 0)
	switch {
	case err == nil:
		defer unix.Close(fd)
		var st unix.Stat_t
		if err := fstat(fd, &st); err != nil {
			return err
		}
		if h.concealed(fd, &st, rel, nil) {
			return refuse
		}
		if st.Mode&unix.S_IFMT != unix.S_IFLNK && !openable(&st) {
			return EACCES // a FIFO, socket or device fails like an unreadable file
		}
		return nil
	case err == unix.ENOENT && create:
		if h.concealedAt(rel) {
			return EACCES
		}
		return nil
	}
	return hostErr(err)
}

// concealedAt reports whether rel names a concealed entry, or an own
// name that does not exist yet.
func (h *hostFS) concealedAt(rel string) bool {
	concealed := false
	h.atParent(rel, func(dir int, _ string) error {
		concealed = h.ownNameIn(dir, rel) || h.concealedIn(dir, rel)
		return nil
	})
	return concealed
}
