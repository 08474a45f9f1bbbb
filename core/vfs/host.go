package vfs

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// hostFS is a mount over a real directory, resolved race-free (G-5.6).
//
// It holds one O_PATH descriptor for the directory, taken when the mount
// is made, and resolves every path from it afresh: each lookup and open is
// a single openat2 with RESOLVE_BENEATH, RESOLVE_NO_SYMLINKS and
// RESOLVE_NO_MAGICLINKS, so the kernel follows no symlink and never leaves
// the directory, whatever a host process renames or relinks meanwhile.
// When openat2 meets a link (ELOOP), a component walk finds it with
// openat(O_PATH|O_NOFOLLOW) one name at a time, reads the link and hands
// it to the View, which judges it against the rules and resolves it
// itself; the kernel never follows a link for gatehouse, and no string is
// walked again after it was judged. Without openat2 (old kernels, seccomp
// filters: ENOSYS, EPERM) the component walk does every lookup; it is as
// safe, only slower. os.Root is not used: it follows links inside its
// root, so a link flipped between the door's check and the open would
// lead to a path the door never saw.
//
// No directory descriptor outlives the operation that opened it: a host
// `mv` of a remembered directory out of the root would otherwise make
// later lookups below it escape.
//
// FIFOs, sockets and device nodes are never opened: they fail as an
// unreadable file does (EACCES), found with an O_PATH probe or an lstat
// first so that a writer blocked on a FIFO is never woken. Gatehouse's own
// files (see Conceal) and links that would lead outside the directory are
// concealed: ENOENT, never listed, never created over.
type hostFS struct {
	root   int    // O_PATH|O_DIRECTORY descriptor of the host directory
	rootID devIno // its identity, the parent of every top-level name
	// spellings are the host directory as given and with its own symlinks
	// resolved: an absolute link target inside either maps into the mount.
	spellings []string
	// beneath is set while openat2 works here; cleared for good on the
	// first ENOSYS or EPERM from the probe, when the component walk
	// does every lookup.
	beneath atomic.Bool
	own     *ownFiles // gatehouse's own files, shared by the VFS's mounts
}

// resolveBeneath is how every openat2 of a host mount resolves a path.
const resolveBeneath = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// newHostFS opens the host directory. Its own path is the operator's
// configuration and may contain links; everything below it is resolved
// beneath the descriptor.
func newHostFS(dir string, own *ownFiles) (*hostFS, error) {
	dir = filepath.Clean(dir)
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		if err == unix.ENOTDIR {
			return nil, fmt.Errorf("host directory %s is not a directory", dir)
		}
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: dir, Err: err}
	}
	h := &hostFS{root: fd, rootID: identity(&st), spellings: []string{filepath.ToSlash(dir)}, own: own}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		h.spellings = append(h.spellings, filepath.ToSlash(real))
	}
	h.beneath.Store(openat2Works(fd))
	return h, nil
}

// openat2Works probes the kernel once per mount.
func openat2Works(root int) bool {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: resolveBeneath}
	fd, err := unix.Openat2(root, ".", &how)
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
}

func (h *hostFS) close() error { return unix.Close(h.root) }

// useComponentWalk makes every lookup take the component walk, as on a
// kernel without openat2 (tests run the suites both ways).
func (h *hostFS) useComponentWalk() { h.beneath.Store(false) }

// openBeneath opens rel ("" is the root itself) below the root without
// following any symlink: a link on the way or at the end is ELOOP, except
// that O_PATH opens a final link itself. flags get O_NOFOLLOW and
// O_CLOEXEC; perm is used with O_CREAT.
func (h *hostFS) openBeneath(rel string, flags int, perm uint32) (int, error) {
	name := rel
	if name == "" {
		name = "."
	}
	flags |= unix.O_NOFOLLOW | unix.O_CLOEXEC
	if h.beneath.Load() {
		how := unix.OpenHow{Flags: uint64(flags), Resolve: resolveBeneath}
		if flags&(unix.O_CREAT|unix.O_TMPFILE) != 0 {
			how.Mode = uint64(perm)
		}
		for tries := 0; ; tries++ {
			fd, err := openat2(h.root, name, &how)
			switch {
			case err == nil:
				return fd, nil
			case err == unix.EINTR, err == unix.EAGAIN && tries < 16:
				continue // EAGAIN: a rename elsewhere raced the lookup
			case err == unix.EXDEV:
				return -1, ENOENT // the kernel saw the path leave the root
			case err != unix.ENOSYS && err != unix.EPERM && err != unix.EAGAIN:
				return -1, err
			}
			break // the component walk gives the real answer
		}
	}
	return h.openComponents(rel, flags, perm)
}

// openComponents is openBeneath one name at a time with openat, for
// kernels without openat2: every directory on the way is opened O_PATH
// with O_NOFOLLOW and checked to be a directory, and never ".." is walked.
func (h *hostFS) openComponents(rel string, flags int, perm uint32) (int, error) {
	if rel == "" {
		return openat(h.root, ".", flags, perm)
	}
	dir := h.root
	defer func() {
		if dir != h.root {
			unix.Close(dir)
		}
	}()
	for {
		slash := strings.IndexByte(rel, '/')
		if slash < 0 {
			return openat(dir, rel, flags, perm)
		}
		fd, err := openat(dir, rel[:slash], unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return -1, err
		}
		var st unix.Stat_t
		if err := fstat(fd, &st); err != nil {
			unix.Close(fd)
			return -1, err
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
		case unix.S_IFLNK:
			unix.Close(fd)
			return -1, ELOOP
		default:
			unix.Close(fd)
			return -1, ENOTDIR
		}
		if dir != h.root {
			unix.Close(dir)
		}
		dir, rel = fd, rel[slash+1:]
	}
}

func openat(dir int, name string, flags int, perm uint32) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, flags, perm)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// splitRel splits a relative path into its parent ("" for the root) and
// last name.
func splitRel(rel string) (dir, name string) {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return "", rel
	}
	return rel[:i], rel[i+1:]
}

// hostErr reduces an error of this backend to the errno the View reports.
func hostErr(err error) error {
	if err == unix.EXDEV {
		return ENOENT
	}
	return err
}

// atParent opens rel's parent directory beneath the root and calls do
// with its descriptor and rel's last name; the descriptor lives only for
// the call.
func (h *hostFS) atParent(rel string, do func(dir int, name string) error) error {
	parent, name := splitRel(rel)
	dir, err := h.openBeneath(parent, unix.O_PATH|unix.O_DIRECTORY, 0)
	if err != nil {
		return hostErr(err)
	}
	defer unix.Close(dir)
	return hostErr(do(dir, name))
}

func (h *hostFS) mkdir(rel string, perm fs.FileMode) error {
	return h.atParent(rel, func(dir int, name string) error {
		if h.ownNameIn(dir, name) {
			return EACCES
		}
		err := ignoringEINTR(func() error { return unix.Mkdirat(dir, name, uint32(perm.Perm())) })
		if err == unix.EEXIST && h.concealedIn(dir, name) {
			return EACCES
		}
		return err
	})
}

// remove unlinks a file or link, or removes an empty directory. A
// directory that holds gatehouse's own files looks empty but is refused.
func (h *hostFS) remove(rel string) error {
	return h.atParent(rel, func(dir int, name string) error {
		if h.concealedIn(dir, name) {
			return ENOENT
		}
		err := ignoringEINTR(func() error { return unix.Unlinkat(dir, name, 0) })
		if err == unix.EISDIR {
			err = ignoringEINTR(func() error { return unix.Unlinkat(dir, name, unix.AT_REMOVEDIR) })
			if (err == unix.ENOTEMPTY || err == unix.EEXIST) && h.ownAncestorIn(dir, name) {
				return EACCES
			}
		}
		return err
	})
}

func (h *hostFS) rename(oldRel, newRel string) error {
	return h.atParent(oldRel, func(oldDir int, oldName string) error {
		if h.concealedIn(oldDir, oldName) {
			return ENOENT
		}
		if h.ownAncestorIn(oldDir, oldName) {
			return EACCES // moving it would move the ledger from under gatehouse
		}
		return h.atParent(newRel, func(newDir int, newName string) error {
			if h.ownNameIn(newDir, newName) || h.concealedIn(newDir, newName) {
				return EACCES // never replace an own file or a concealed link
			}
			err := ignoringEINTR(func() error { return unix.Renameat(oldDir, oldName, newDir, newName) })
			if (err == unix.ENOTEMPTY || err == unix.EEXIST) && h.ownAncestorIn(newDir, newName) {
				return EACCES // it looks empty: say no more than rmdir does
			}
			return err
		})
	})
}

func (h *hostFS) symlink(target, rel string) error {
	return h.atParent(rel, func(dir int, name string) error {
		if h.ownNameIn(dir, name) {
			return EACCES
		}
		err := ignoringEINTR(func() error { return unix.Symlinkat(filepath.FromSlash(target), dir, name) })
		if err == unix.EEXIST && h.concealedIn(dir, name) {
			return EACCES
		}
		return err
	})
}

// link is refused on a host mount: a second host name of a file would
// need the own-file bookkeeping (host_own.go) to follow it, so a host mount
// answers as a filesystem without hard links.
func (h *hostFS) link(string, string) error { return ENOTSUP }

func (h *hostFS) readlink(rel string) (string, error) {
	fd, err := h.openBeneath(rel, unix.O_PATH, 0)
	if err != nil {
		return "", hostErr(err)
	}
	defer unix.Close(fd)
	target, err := readlinkFD(fd, "")
	return filepath.ToSlash(target), err
}

// chmod changes an entry's mode through an O_PATH descriptor of the entry
// itself, so a link swapped in after the View resolved the path is never
// followed: fchmodat2(AT_EMPTY_PATH), or on older kernels the descriptor's
// /proc/self/fd name, which names that very inode.
func (h *hostFS) chmod(rel string, mode fs.FileMode) error {
	fd, err := h.openBeneath(rel, unix.O_PATH, 0)
	if err != nil {
		return hostErr(err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		return err
	}
	if h.concealed(fd, &st, rel, nil) {
		return ENOENT
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return ELOOP // the path changed after the View resolved it
	}
	bits := uint32(mode.Perm())
	if mode&fs.ModeSetuid != 0 {
		bits |= unix.S_ISUID
	}
	if mode&fs.ModeSetgid != 0 {
		bits |= unix.S_ISGID
	}
	if mode&fs.ModeSticky != 0 {
		bits |= unix.S_ISVTX
	}
	err = ignoringEINTR(func() error { return unix.Fchmodat(fd, "", bits, unix.AT_EMPTY_PATH) })
	if err == unix.EOPNOTSUPP || err == unix.ENOSYS || err == unix.EINVAL {
		err = ignoringEINTR(func() error {
			return unix.Fchmodat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", fd), bits, 0)
		})
	}
	return err
}

// chtimes sets the times of the entry itself (utimensat with
// AT_SYMLINK_NOFOLLOW on its parent's descriptor); a zero time is left
// unchanged.
func (h *hostFS) chtimes(rel string, atime, mtime time.Time) error {
	return h.atParent(rel, func(dir int, name string) error {
		if h.concealedIn(dir, name) {
			return ENOENT
		}
		ts := []unix.Timespec{timespec(atime), timespec(mtime)}
		if rel == "" {
			return ignoringEINTR(func() error { return unix.UtimesNanoAt(h.root, ".", ts, 0) })
		}
		return ignoringEINTR(func() error { return unix.UtimesNanoAt(dir, name, ts, unix.AT_SYMLINK_NOFOLLOW) })
	})
}

func timespec(t time.Time) unix.Timespec {
	if t.IsZero() {
		return unix.Timespec{Nsec: unix.UTIME_OMIT}
	}
	return unix.NsecToTimespec(t.UnixNano())
}

// readlinkFD reads the link name under dir ("" for the O_PATH descriptor
// of the link itself), growing the buffer for long targets.
func readlinkFD(dir int, name string) (string, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(dir, name, buf)
		if err == unix.EINTR {
			size /= 2
			continue
		}
		if err != nil {
			return "", err
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
}
