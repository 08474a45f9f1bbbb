package vfs

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"time"
)

// maxLinks is how many symlinks one lookup may traverse before ELOOP, as
// Linux allows.
const maxLinks = 40

// view is the door-checked FS of one Door.
type view struct {
	vfs   *VFS
	door  Door
	umask fs.FileMode // taken from the permissions of what it creates
	// git marks the views of the git utility (see GitView): a work tree's
	// ops never reach into a .git, and a repository's never reach its
	// index or object store through a link.
	git GitRole
	// open: the view of a nil door, which lets everything pass.
	open bool
}

// resolved is where a caller's path leads.
type resolved struct {
	clean string // the caller's path, cleaned (names FileInfo results)
	path  string // the path with every link component resolved
	m     *mount // nil for the synthetic root and its synthetic dirs
	rel   string // path inside m
	walkResult
}

func (r *resolved) prefix() string {
	if r.m == nil {
		return ""
	}
	return r.m.prefix
}

// synthetic reports whether the path lies in the read-only synthetic tree.
func (r *resolved) synthetic() bool { return r.m == nil }

// judge asks the door; a hidden path becomes ENOENT (G-4.5). Every other
// answer (EROFS, EACCES, a refusal) reaches the caller unchanged, so for an
// op that creates a name the gate alone decides between ENOENT and EACCES
// (G-4.11).
func (v *view) judge(op Op) error {
	if v.git == GitWorkTree && !op.Listing && hasGitComponent(op.Path) {
		return errIntoGit
	}
	err := v.door.CheckOp(op)
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrHidden) {
		return ENOENT
	}
	return err
}

// resolve cleans name and walks it, following every symlink component (and
// the last one when follow is set). The door judges each link traversed, on
// the link's own path and with the op's name (G-6.1a); the caller judges the
// final path. The error is fatal (bad path, door, ELOOP, a link leading
// nowhere); a path that merely does not exist comes back with exists unset,
// so the door can speak about it first (a hidden path then reads as missing
// even where the walk would have said ENOTDIR).
//
// ".." is lexical: the whole path is cleaned before the walk, as a shell's
// logical cd does, and a link's target is joined to the link's directory and
// cleaned. A traversed link is judged with Write unset: passing through a
// link reads it, so a link on a read-only mount may lead to a writable file.
// Cleaning also drops a trailing slash, so "file/" names file.
func (v *view) resolve(r *resolved, opName, name string, follow bool) error {
	clean, err := cleanAbs(name)
	if err != nil {
		return err
	}
	r.clean, r.path = clean, clean
	for links := 0; ; {
		m, rel := v.vfs.locate(r.path)
		if m == nil {
			v.resolveSynthetic(r)
			return nil
		}
		r.m, r.rel = m, rel
		r.walkResult = m.b.walk(rel, follow)
		if r.linkEnd == 0 {
			return nil
		}
		linkPath := r.path[:len(m.prefix)+1+r.linkEnd]
		if err := v.judge(Op{Name: opName, Path: linkPath, Prefix: m.prefix}); err != nil {
			return err
		}
		if links++; links > maxLinks {
			return ELOOP
		}
		dest, ok := m.linkDest(linkPath, r.target)
		if !ok {
			return ENOENT
		}
		r.path, _ = cleanAbs(dest + r.path[len(linkPath):])
	}
}

func (v *view) resolveSynthetic(r *resolved) {
	r.m, r.rel, r.walkResult = nil, "", walkResult{}
	switch {
	case v.vfs.synthetic[r.path] != nil:
		r.info, r.exists, r.parentOK = v.vfs.synthInfo, true, true
	case v.vfs.synthetic[dirName(r.path)] != nil:
		r.missing, r.parentOK = ENOENT, true
	default:
		r.missing = ENOENT
	}
}

// lookup resolves name and has the door judge the final path: the shape
// shared by every single-path op.
//
// A refusal never speaks for a path that is not there: when the path does
// not exist and the op cannot create it (it creates nothing, or the
// directory that would hold it is missing too), a rule's refusal or an
// EACCES gives way to the missing path's own error. So under a deny, a
// missing name answers exactly like a hidden one (G-4.5); creating a name
// under a deny is still refused.
func (v *view) lookup(r *resolved, op Op, name string, follow bool) error {
	if err := v.resolve(r, op.Name, name, follow); err != nil {
		return err
	}
	if v.git == GitRepository && linkedIntoGitStore(r.clean, r.path) {
		return errIntoGit
	}
	op.Path, op.Prefix = r.path, r.prefix()
	err := v.judge(op)
	if err != nil && !r.exists && r.missing != nil && (!op.Create || !r.parentOK) && refusal(err) {
		return r.missing
	}
	return err
}

// refusal reports an answer of the door that refuses a path the session may
// know of (a rule's reason, or EACCES), as opposed to ENOENT or EROFS.
func refusal(err error) bool {
	var refused *RefusedError
	return errors.As(err, &refused) || errors.Is(err, EACCES)
}

func (v *view) Stat(name string) (fs.FileInfo, error) {
	return v.statLike(OpStat, "stat", name, true)
}

func (v *view) Lstat(name string) (fs.FileInfo, error) {
	return v.statLike(OpLstat, "lstat", name, false)
}

func (v *view) statLike(opName, word, name string, follow bool) (fs.FileInfo, error) {
	var r resolved
	err := v.lookup(&r, Op{Name: opName}, name, follow)
	if err != nil {
		return nil, pathErr(word, name, err)
	}
	if !r.exists {
		return nil, pathErr(word, name, r.missing)
	}
	return r.info.as(baseName(r.clean)), nil
}

func (v *view) Resolve(name string) (string, error) {
	var r resolved
	err := v.lookup(&r, Op{Name: OpStat}, name, true)
	if err != nil {
		return "", pathErr("realpath", name, err)
	}
	if !r.exists {
		return "", pathErr("realpath", name, r.missing)
	}
	return r.path, nil
}

// ReadDir lists a directory, then drops every entry the door hides
// (G-4.5). Entries the door refuses otherwise stay listed (G-6.1b).
func (v *view) ReadDir(name string) ([]fs.DirEntry, error) { return v.readDir(name, false) }

// ReadDirInfo is ReadDir with every entry's metadata taken in the listing.
func (v *view) ReadDirInfo(name string) ([]fs.DirEntry, error) { return v.readDir(name, true) }

func (v *view) readDir(name string, withInfo bool) ([]fs.DirEntry, error) {
	if entries, done, err := v.readDirDirect(name, withInfo); done {
		return entries, err
	}
	var r resolved
	err := v.lookup(&r, Op{Name: OpReadDir}, name, true)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	if !r.exists {
		return nil, pathErr("open", name, r.missing)
	}
	if !r.info.IsDir() {
		return nil, pathErr("readdirent", name, ENOTDIR)
	}
	var entries []fs.DirEntry
	if r.synthetic() {
		entries = v.syntheticEntries(r.path)
	} else if il, ok := r.m.b.(infoLister); ok && withInfo {
		if entries, err = il.readDirInfo(r.rel); err != nil {
			return nil, pathErr("open", name, err)
		}
	} else if entries, err = r.m.b.readDir(r.rel); err != nil {
		return nil, pathErr("open", name, err)
	}
	return v.dropHidden(r.path, r.m, entries), nil
}

// readDirDirect lists a directory of a backend that opens it in one step
// (a host mount): open, judge, read. done is false when the general path
// must answer.
func (v *view) readDirDirect(name string, withInfo bool) (entries []fs.DirEntry, done bool, err error) {
	if v.vfs.hostMounts == 0 {
		return nil, false, nil // only host mounts open in one step
	}
	clean, err := cleanAbs(name)
	if err != nil {
		return nil, false, nil
	}
	m, rel := v.vfs.locate(clean)
	if m == nil {
		return nil, false, nil
	}
	dr, ok := m.b.(directReader)
	if !ok {
		return nil, false, nil
	}
	d, ok := dr.openDir(rel)
	if !ok {
		return nil, false, nil
	}
	defer d.close()
	if err := v.judge(Op{Name: OpReadDir, Path: clean, Prefix: m.prefix}); err != nil {
		return nil, true, pathErr("open", name, err)
	}
	if entries, err = d.list(withInfo); err != nil {
		return nil, true, pathErr("open", name, err)
	}
	return v.dropHidden(clean, m, entries), true, nil
}

// dropHidden removes from a listing of dir (held by mount m, nil for the
// synthetic tree) every entry the door hides (G-4.5). Entries the door
// refuses otherwise stay listed (G-6.1b).
func (v *view) dropHidden(dir string, m *mount, entries []fs.DirEntry) []fs.DirEntry {
	hidden := func(name string) bool {
		child := joinPath(dir, name)
		prefix := ""
		if m != nil {
			prefix = m.prefix
		} else if cm := v.vfs.mountAt(child); cm != nil {
			prefix = cm.prefix
		}
		return errors.Is(v.door.CheckOp(Op{Name: OpStat, Path: child, Prefix: prefix, Listing: true}), ErrHidden)
	}
	if ld, ok := v.door.(ListingDoor); ok && m != nil {
		// One question for the directory instead of one per entry (G-14).
		if hidden = ld.Hider(dir); hidden == nil {
			return entries
		}
	}
	kept := entries[:0]
	for _, e := range entries {
		if !hidden(e.Name()) {
			kept = append(kept, e)
		}
	}
	clear(entries[len(kept):]) // let dropped entries be collected
	return kept
}

// syntheticEntries lists a synthetic directory: its mount roots (with the
// mount root's own metadata) and its synthetic subdirectories.
func (v *view) syntheticEntries(dir string) []fs.DirEntry {
	names := v.vfs.synthetic[dir].children
	infos := make([]fileInfo, len(names))
	for i, n := range names {
		child := joinPath(dir, n)
		if m := v.vfs.mountAt(child); m != nil {
			infos[i] = *m.b.walk("", false).info
		} else {
			infos[i] = *v.vfs.synthInfo
		}
		infos[i].name = n
	}
	return entriesOf(infos)
}

func (v *view) Open(name string) (File, error) { return v.OpenFile(name, 0, 0) }

// OpenFile follows open(2): O_CREATE creates a missing file (through a
// dangling link too), O_CREATE|O_EXCL fails on any existing name, links
// included, and a directory opens for reading only.
func (v *view) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	if flag&^OListedRegular == os.O_RDONLY {
		if f, done, err := v.openDirect(name, flag&OListedRegular != 0); done {
			return f, err
		}
	}
	flag &^= OListedRegular
	create := flag&createFlag != 0
	exclusive := create && flag&exclFlag != 0
	write := flag&writeFlags != 0
	var r resolved
	err := v.lookup(&r, Op{Name: OpOpen, Write: write, Create: create}, name, !exclusive)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	switch {
	case r.exists && exclusive:
		return nil, pathErr("open", name, EEXIST)
	case r.exists && r.info.IsDir() && write:
		return nil, pathErr("open", name, EISDIR)
	case r.exists && r.synthetic():
		return &dirFile{name: name, info: *r.info.as(baseName(r.clean))}, nil
	case r.exists && write && r.m.readOnly:
		return nil, pathErr("open", name, EROFS)
	case !r.exists && (!create || !r.parentOK):
		return nil, pathErr("open", name, r.missing)
	case !r.exists && (r.synthetic() || r.m.readOnly):
		return nil, pathErr("open", name, EROFS)
	}
	var before int64
	if write || create {
		before = r.m.spaceUsed()
	}
	f, err := r.m.b.openFile(r.rel, flag, perm&^v.umask, name)
	if write || create {
		v.settleSpace(r.m, before)
	}
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	if write {
		f = r.m.accountWrites(f, v.door)
	}
	return f, nil
}

// openDirect opens a file for reading on a backend that does it in one
// step (a host mount): open, judge, and only then may a byte be read. A
// read-only open of a regular file or directory has no effect the door
// could have prevented, so opening first changes nothing but the syscalls
// it saves; writes, creations and truncations always take the general
// path, judged before they happen. done is false when the general path
// must answer.
func (v *view) openDirect(name string, listedRegular bool) (f File, done bool, err error) {
	if v.vfs.hostMounts == 0 {
		return nil, false, nil // only host mounts open in one step
	}
	clean, err := cleanAbs(name)
	if err != nil {
		return nil, false, nil
	}
	m, rel := v.vfs.locate(clean)
	if m == nil {
		return nil, false, nil
	}
	dr, ok := m.b.(directReader)
	if !ok {
		return nil, false, nil
	}
	if f, ok = dr.openRead(rel, name, listedRegular); !ok {
		return nil, false, nil
	}
	if err := v.judge(Op{Name: OpOpen, Path: clean, Prefix: m.prefix}); err != nil {
		f.Close()
		return nil, true, pathErr("open", name, err)
	}
	return f, true, nil
}

// writable reports why a resolved, existing or creatable path cannot be
// changed: the synthetic tree and read-only mounts say EROFS (G-5.2), as a
// read-only filesystem does once the name itself checks out.
func writable(r *resolved) error {
	if r.synthetic() || r.m.readOnly {
		return EROFS
	}
	return nil
}

func (v *view) Mkdir(name string, perm fs.FileMode) error {
	var r resolved
	err := v.lookup(&r, Op{Name: OpMkdir, Write: true, Create: true}, name, false)
	switch {
	case err != nil:
	case r.exists:
		err = EEXIST // before EROFS, so `mkdir -p` works on read-only mounts
	case !r.parentOK:
		err = r.missing
	default:
		if err = writable(&r); err == nil {
			err = r.m.b.mkdir(r.rel, perm&^v.umask)
		}
	}
	if err != nil {
		return pathErr("mkdir", name, err)
	}
	return nil
}

// Remove deletes a file, a symlink or an empty directory. A mount point is
// EBUSY, as rmdir(2) says for one; a directory that holds only hidden
// entries is EACCES, never "not empty" (see onlyHidden).
func (v *view) Remove(name string) error {
	var r resolved
	err := v.lookup(&r, Op{Name: OpRemove, Write: true}, name, false)
	switch {
	case err != nil:
	case !r.exists:
		err = r.missing
	case !r.synthetic() && r.rel == "":
		err = EBUSY
	default:
		if err = writable(&r); err == nil {
			before := r.m.spaceUsed()
			err = v.notEmptyAnswer(&r, r.m.b.remove(r.rel))
			v.settleSpace(r.m, before)
		}
	}
	if err != nil {
		return pathErr("remove", name, err)
	}
	return nil
}

// Rename judges both ends (G-6.1a); the new end as a creation. A
// directory carries every entry below it, and each is judged at its new
// path too (see renameCarrying). Across mounts it is EXDEV, so mv falls
// back to copy and remove.
func (v *view) Rename(oldname, newname string) error {
	var from resolved
	err := v.lookup(&from, Op{Name: OpRename, Write: true}, oldname, false)
	if err != nil {
		return pathErr("rename", oldname, err)
	}
	var to resolved
	err = v.lookup(&to, Op{Name: OpRename, Write: true, Create: true}, newname, false)
	if err != nil {
		return pathErr("rename", newname, err)
	}
	fail := func(blame string, err error) error { return pathErr("rename", blame, err) }
	switch {
	case !from.exists:
		return fail(oldname, from.missing)
	case !to.exists && !to.parentOK:
		return fail(newname, to.missing)
	case from.synthetic():
		return fail(oldname, EROFS)
	case from.rel == "":
		return fail(oldname, EBUSY)
	case to.m != from.m:
		return fail(newname, EXDEV)
	case to.rel == "":
		return fail(newname, EBUSY)
	case from.m.readOnly:
		return fail(oldname, EROFS)
	case from.path == to.path:
		return nil
	case within(to.path, from.path):
		return fail(newname, EINVAL)
	}
	before := from.m.spaceUsed()
	err = v.renameCarrying(&from, &to)
	v.settleSpace(from.m, before)
	if err != nil {
		if to.exists {
			err = v.notEmptyAnswer(&to, err)
		}
		return fail(newname, err)
	}
	return nil
}

// Symlink creates linkname pointing at target; only the link's path is
// judged, since nothing is opened through target. On a host mount an
// absolute target inside the same mount is written as a relative host link
// (so it works on the host too); an absolute target anywhere else, or a
// relative one that climbs above the host directory, could not be followed
// there, so it is EXDEV.
func (v *view) Symlink(target, linkname string) error {
	var r resolved
	err := v.lookup(&r, Op{Name: OpSymlink, Write: true, Create: true}, linkname, false)
	switch {
	case err != nil:
	case r.exists:
		err = EEXIST
	case !r.parentOK:
		err = r.missing
	case target == "":
		err = ENOENT
	default:
		if err = writable(&r); err != nil {
			break
		}
		stored := target
		if r.m.confineTo != nil && target[0] == '/' {
			dest, _ := cleanAbs(target)
			if !within(dest, r.m.prefix) {
				err = EXDEV
				break
			}
			stored = relativePath(dirName(r.path), dest)
		} else if r.m.confineTo != nil && climbsOut(strings.Count(r.rel, "/"), target) {
			// A relative target that climbs above the host directory
			// would lead outside it on the host: such a link is never
			// followed nor listed (G-5.6), so it is not made either.
			err = EXDEV
			break
		}
		err = r.m.b.symlink(stored, r.rel)
	}
	if err != nil {
		return pathErr("symlink", linkname, err)
	}
	return nil
}

// Link makes newname a second name of oldname (link(2): oldname's last
// component is not followed). A second name carries the content as a
// rename that keeps the old name would (G-6.1a): the door judges oldname
// as a read and newname as a creation, then the entry as carried to
// newname, so the new name must protect at least as much as the old one
// (hidden stays hidden, denied and asked stay so, read-only stays
// read-only). A directory is EPERM; across mounts it is EXDEV.
func (v *view) Link(oldname, newname string) error {
	var from resolved
	if err := v.lookup(&from, Op{Name: OpLink}, oldname, false); err != nil {
		return pathErr("link", oldname, err)
	}
	var to resolved
	if err := v.lookup(&to, Op{Name: OpLink, Write: true, Create: true}, newname, false); err != nil {
		return pathErr("link", newname, err)
	}
	fail := func(blame string, err error) error { return pathErr("link", blame, err) }
	switch {
	case !from.exists:
		return fail(oldname, from.missing)
	case from.info.IsDir():
		return fail(oldname, EPERM)
	case to.exists:
		return fail(newname, EEXIST)
	case !to.parentOK:
		return fail(newname, to.missing)
	case to.m != from.m:
		return fail(newname, EXDEV)
	}
	if err := writable(&to); err != nil {
		return fail(newname, err)
	}
	if err := v.checkCarried(&from, &to); err != nil {
		return fail(newname, err)
	}
	before := to.m.spaceUsed()
	err := to.m.b.link(from.rel, to.rel)
	v.settleSpace(to.m, before)
	if err != nil {
		return fail(newname, err)
	}
	return nil
}

// Readlink returns a link's target. On a host mount an absolute target
// inside the host directory reads as the VFS path it leads to, so no host
// path is shown for a link that works.
func (v *view) Readlink(name string) (string, error) {
	var r resolved
	err := v.lookup(&r, Op{Name: OpReadlink}, name, false)
	switch {
	case err != nil:
	case !r.exists:
		err = r.missing
	case r.info.mode&fs.ModeSymlink == 0:
		err = EINVAL
	default:
		var target string
		if target, err = r.m.b.readlink(r.rel); err == nil {
			if r.m.confineTo == nil {
				return target, nil
			}
			// A host link that would leave the mount is ENOENT (G-5.6):
			// its target, a host path, is never shown.
			if len(target) > 0 && target[0] == '/' {
				if mapped, ok := r.m.hostToVFS(cleanOrSelf(target)); ok {
					return mapped, nil
				}
				err = ENOENT
			} else if climbsOut(strings.Count(r.rel, "/"), target) {
				err = ENOENT
			} else {
				return target, nil
			}
		}
	}
	return "", pathErr("readlink", name, err)
}

func cleanOrSelf(p string) string {
	if c, err := cleanAbs(p); err == nil {
		return c
	}
	return p
}

func (v *view) Chmod(name string, mode fs.FileMode) error {
	return v.change(OpChmod, "chmod", name, func(r *resolved) error { return r.m.b.chmod(r.rel, mode) })
}

func (v *view) Chtimes(name string, atime, mtime time.Time) error {
	return v.change(OpUtimes, "utimes", name, func(r *resolved) error { return r.m.b.chtimes(r.rel, atime, mtime) })
}

// CheckWrite is the judgement of a metadata write with nothing applied.
func (v *view) CheckWrite(name string) error {
	return v.change(OpUtimes, "access", name, func(*resolved) error { return nil })
}

// CheckCreate is the judgement of an open for writing that may create
// name, with nothing opened. Unlike lookup it keeps the door's refusal
// when the parent directory is missing too: the writer would make the
// directory and then meet the same refusal.
func (v *view) CheckCreate(name string) error {
	var r resolved
	if err := v.resolve(&r, OpOpen, name, true); err != nil {
		return pathErr("open", name, err)
	}
	if v.git == GitRepository && linkedIntoGitStore(r.clean, r.path) {
		return pathErr("open", name, errIntoGit)
	}
	err := v.judge(Op{Name: OpOpen, Write: true, Create: !r.exists, Planned: true, Path: r.path, Prefix: r.prefix()})
	if r.exists && errors.Is(err, ENOENT) {
		// A hidden path is a missing one: creating it is judged as
		// creating a name that is not there, or the answer would tell a
		// hidden file (or a file below a hidden directory) from nothing.
		err = v.judge(Op{Name: OpOpen, Write: true, Create: true, Planned: true, Path: r.path, Prefix: r.prefix()})
	}
	switch {
	case err != nil:
	case r.exists && r.info.IsDir():
		err = EISDIR
	default:
		err = writable(&r)
	}
	if err != nil {
		return pathErr("open", name, err)
	}
	return nil
}

// CheckRead is the judgement of a read with nothing opened; the path need
// not exist, so no missing name gives way to a refusal here.
func (v *view) CheckRead(name string) error {
	var r resolved
	if err := v.resolve(&r, OpOpen, name, true); err != nil {
		return pathErr("open", name, err)
	}
	if err := v.judge(Op{Name: OpOpen, Path: r.path, Prefix: r.prefix()}); err != nil {
		return pathErr("open", name, err)
	}
	return nil
}

// change runs a metadata write on an existing, link-resolved path.
func (v *view) change(opName, word, name string, apply func(*resolved) error) error {
	var r resolved
	err := v.lookup(&r, Op{Name: opName, Write: true}, name, true)
	switch {
	case err != nil:
	case !r.exists:
		err = r.missing
	default:
		if err = writable(&r); err == nil {
			err = apply(&r)
		}
	}
	if err != nil {
		return pathErr(word, name, err)
	}
	return nil
}
