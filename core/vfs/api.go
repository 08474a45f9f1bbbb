// Package vfs is gatehouse's virtual filesystem: a table of mounts (memory or
// host directories) under path prefixes, reached only through a View that
// passes every operation through an op door (G-6) before it touches a mount.
//
// Paths given to a View are absolute, slash-separated VFS paths. The View
// cleans them (".", "..", repeated slashes), resolves every symlink component
// itself (so no backend ever follows a link), asks the Door about every link
// it traverses and about the final resolved path, and only then calls the
// backend of the mount that holds the path.
//
// Errors are *fs.PathError values whose Path is the path as the caller spelled
// it and whose Err is a syscall.Errno (ENOENT, EROFS, EACCES, ENOTDIR, EISDIR,
// EEXIST, ENOTEMPTY, ELOOP, EXDEV, EINVAL) or a *RefusedError carrying a
// rule's reason. Hidden paths are ENOENT, indistinguishable from missing ones.
package vfs

import (
	"errors"
	"io"
	"io/fs"
	"syscall"
	"time"
)

// Op names passed to a Door.
const (
	OpStat     = "stat"
	OpLstat    = "lstat"
	OpOpen     = "open"
	OpReadDir  = "readdir"
	OpMkdir    = "mkdir"
	OpRemove   = "remove"
	OpRename   = "rename"
	OpSymlink  = "symlink"
	OpLink     = "link"
	OpReadlink = "readlink"
	OpChmod    = "chmod"
	OpUtimes   = "utimes"
)

// Op is one filesystem operation as the door sees it.
type Op struct {
	Name   string // one of the Op* constants
	Path   string // absolute, cleaned, every symlink component resolved
	Write  bool   // the op creates, modifies or removes something
	Create bool   // the op would create Path (open O_CREATE on a missing file, mkdir, symlink, rename target)
	Prefix string // prefix of the mount holding Path ("" for the synthetic root and its synthetic dirs)
	// Listing marks the check of one entry while listing its directory: only
	// whether the entry is hidden matters there (a denied entry is still
	// listed, G-6.1b), so a door may skip work that can only refuse.
	Listing bool
	// Planned marks the judgement of a write planned before it is made
	// (View.CheckCreate): the writer makes any directory missing on the
	// way, so a path below a hidden directory meets the deny or ask that
	// reaches it were no hide written, as the same path below a missing
	// directory does (G-4.5).
	Planned bool
}

// Door judges one operation before it reaches a mount. It returns nil to let
// it pass, or an error: ErrHidden (reported to the caller as ENOENT),
// syscall.EROFS, syscall.EACCES, or a *RefusedError. A Door must be safe for
// concurrent use and cheap (G-6.3).
type Door interface {
	CheckOp(op Op) error
}

// A ListingDoor can judge a whole directory's entries at once: Hider
// returns nil when no entry of dir can be hidden, so a listing keeps every
// entry without a check each, or else a test that reports whether the entry
// name is hidden (the answer CheckOp would give the entry's listing check).
// dir is absolute, cleaned and link-free, as for CheckOp.
type ListingDoor interface {
	Door
	Hider(dir string) func(name string) bool
}

// DoorFunc adapts a function to a Door.
type DoorFunc func(op Op) error

// CheckOp calls f.
func (f DoorFunc) CheckOp(op Op) error { return f(op) }

// OpenDoor lets every operation pass (an unrestricted session).
var OpenDoor Door = DoorFunc(func(Op) error { return nil })

// ErrHidden is what a Door returns for a hidden path. The View turns it into
// ENOENT so the caller cannot tell it from a missing path (G-4.5).
var ErrHidden = errors.New("hidden")

// RefusedError is an op refused by a rule or policy (G-6.2). Its text is the
// reason alone, so a utility prints "NAME: PATH: REASON". It unwraps to
// fs.ErrPermission. Detail carries the gate's record for the refusal (opaque
// to vfs).
type RefusedError struct {
	Reason string
	Detail any
}

func (e *RefusedError) Error() string { return e.Reason }

// Unwrap makes errors.Is(err, fs.ErrPermission) true.
func (e *RefusedError) Unwrap() error { return fs.ErrPermission }

// File is an open file of the VFS.
type File interface {
	io.Reader
	io.Writer
	io.Closer
	io.Seeker
	Stat() (fs.FileInfo, error)
}

// FS is what commands see: a door-checked view of every mount. All paths are
// absolute VFS paths. Implementations are safe for concurrent use.
type FS interface {
	Stat(name string) (fs.FileInfo, error)
	Lstat(name string) (fs.FileInfo, error)
	// ReadDir lists a directory sorted by name; entries the door hides are
	// absent. Entry Info() follows the rules of Lstat.
	ReadDir(name string) ([]fs.DirEntry, error)
	// ReadDirInfo is ReadDir for a caller that will ask every entry's
	// Info (ls -l, du): the metadata is taken with the listing, on a host
	// mount one lstat per entry against the directory being listed rather
	// than a lookup from the mount's root for each Info. An entry that
	// vanishes in between is left out.
	ReadDirInfo(name string) ([]fs.DirEntry, error)
	Open(name string) (File, error) // read only
	OpenFile(name string, flag int, perm fs.FileMode) (File, error)
	Mkdir(name string, perm fs.FileMode) error
	Remove(name string) error // a file, a symlink or an empty directory
	Rename(oldname, newname string) error
	Symlink(target, linkname string) error
	// Link makes newname a second name of the file oldname (a hard link;
	// oldname's last component is not followed, as link(2)).
	Link(oldname, newname string) error
	Readlink(name string) (string, error)
	Chmod(name string, mode fs.FileMode) error
	Chtimes(name string, atime, mtime time.Time) error
	// Resolve returns the absolute cleaned path with every symlink resolved
	// (like realpath -e), judged by the door as a stat.
	Resolve(name string) (string, error)
	// CheckWrite answers access(2)'s W_OK for an existing name, links
	// followed, without changing anything: the error a change to it would
	// meet (the door's word on a write, judged as a utimes; EROFS on a
	// read-only mount or the synthetic tree), or nil (test -w).
	CheckWrite(name string) error
	// CheckCreate answers what writing name would meet, creating it when
	// it is missing (open for writing with O_CREATE), without changing
	// anything: the door's word on the path, EROFS on a read-only mount
	// or the synthetic tree, or nil. Missing directories on the way are no
	// objection (the writer makes them first, each judged then). A command
	// that writes many files asks it of all of them before its first
	// write, so a refusal never leaves it half done.
	CheckCreate(name string) error
	// CheckRead answers what the door says of reading name, whether or not
	// it exists, without touching it: nil, ENOENT for a hidden path (or a
	// link component leading nowhere), or the refusal an open for reading
	// would meet. Link components that exist are followed as a lookup
	// follows them. It serves content kept under a name that may be absent
	// from the tree (git's history judged by its worktree path names).
	CheckRead(name string) error
	// Statfs describes the mount holding name (links followed, judged as a
	// stat), as df shows it.
	Statfs(name string) (Space, error)
	// Spaces describes every mount whose mount point the door shows,
	// sorted by prefix.
	Spaces() []Space
}

// Space is a mount as df describes it: the workspace's own account of
// it, never the host disk's figures (G-12.1).
type Space struct {
	Mount    string // the mount point
	Kind     string // "memory", "host" or "dev"
	ReadOnly bool
	// Known says Size and Used are the mount's bound and what is taken of
	// it: a memory mount's size, or a host mount's write quota. A host
	// mount without a quota has no figures a workspace may show.
	Known      bool
	Size, Used int64 // bytes
}

// OListedRegular is an OpenFile flag for a read-only open: the caller
// read the name's type as a regular file in the directory listing it just
// made (grep -r over the entries it walks). A host mount then skips the
// lstat that keeps it from ever opening a FIFO or a device, and checks the
// type of what it opened instead: an entry a host process replaced by a
// special file meanwhile still fails like an unreadable file. Other
// backends ignore it.
const OListedRegular = 1 << 30

// MountSpec describes one mount of a workspace.
type MountSpec struct {
	Prefix   string            // absolute, cleaned: "/runbook"
	ReadOnly bool              // mode ro
	HostDir  string            // "" = memory mount; else an absolute host directory
	Files    map[string]string // seed content for memory mounts: path inside the mount -> content
	// Size bounds a memory mount: the bytes of its files plus a small
	// cost per entry. 0 means DefaultMemoryMountSize. A write or creation
	// past it fails with ENOSPC (No space left on device).
	Size int64
	// Quota bounds a host mount: the bytes gatehouse may write into its
	// files while the workspace is open, every write counting. 0 means no
	// quota. A write past it fails with EDQUOT (Disk quota exceeded).
	Quota int64
	// Ephemeral keeps a memory mount out of the workspace's ledger
	// (persist: false): its files last as long as the process. Every
	// other memory mount of a VFS built WithJournal is durable (G-5.6);
	// the built-in /tmp is ephemeral.
	Ephemeral bool
}

// Errno values re-exported so callers need not import syscall for comparisons.
var (
	ENOENT    = syscall.ENOENT
	EROFS     = syscall.EROFS
	EACCES    = syscall.EACCES
	ENOTDIR   = syscall.ENOTDIR
	EISDIR    = syscall.EISDIR
	EEXIST    = syscall.EEXIST
	ENOTEMPTY = syscall.ENOTEMPTY
	ELOOP     = syscall.ELOOP
	EXDEV     = syscall.EXDEV
	EINVAL    = syscall.EINVAL
)
