package vfs

import "errors"

// A CarryDoor also judges what a rename carries. Renaming a directory moves
// every entry below it to a new path where other rules may apply: a hide,
// deny or ask anchored inside the directory, or matching names only under
// its old path, would no longer reach what it protected (G-6.1a). The View
// asks CheckCarry for every entry below a renamed directory, and refuses
// the rename when one answer is not nil.
type CarryDoor interface {
	Door
	// CheckCarry judges moving the entry at from.Path to to.Path (both
	// absolute, cleaned and link-free, in the mount from.Prefix). It
	// returns nil when the rules over to.Path are at least as strong as
	// over from.Path, else the error an op on from.Path meets there
	// (ErrHidden, a *RefusedError or EROFS), so a wrapping door can still
	// open what an answered question opened.
	CheckCarry(from, to Op) error
	// CarryClear reports whether no rule or hook can tell apart what lies
	// below from and below to: the View then skips the walk.
	CarryClear(from, to string) bool
}

// maxCarryRetries is how many times a rename re-walks a memory directory
// that changed between the walk and the rename before it gives up.
const maxCarryRetries = 8

// generational is a backend that counts its namespace changes, so a rename
// can tell that the tree it judged is still the tree it moves.
type generational interface {
	// generation counts every entry added or dropped so far.
	generation() uint64
	// renameAt is rename if the generation is still gen, else errStale.
	renameAt(oldRel, newRel string, gen uint64) error
}

var errStale = errors.New("vfs: tree changed while a rename was judged")

// renameCarrying renames a resolved entry after judging what it carries:
// the entry, and every entry below a directory, is judged at its new path
// (G-6.1a). A memory mount re-judges when its tree changed meanwhile;
// on a host mount a host process may still add entries between the walk and
// the rename (docs/security.md says so).
func (v *view) renameCarrying(from, to *resolved) error {
	g, versioned := from.m.b.(generational)
	if !from.info.IsDir() {
		versioned = false // nothing below it can change meanwhile
	}
	for range maxCarryRetries {
		var gen uint64
		if versioned {
			gen = g.generation()
		}
		if err := v.checkCarried(from, to); err != nil {
			return err
		}
		if !versioned {
			return from.m.b.rename(from.rel, to.rel)
		}
		if err := g.renameAt(from.rel, to.rel, gen); !errors.Is(err, errStale) {
			return err
		}
	}
	return EAGAIN
}

// checkCarried asks the door about the renamed entry itself and, for a
// directory, walks it without following links and asks about every entry
// below it. Any objection, or a directory the walk cannot list, refuses the
// rename with EACCES: the reason may belong to an entry the caller did not
// name, even a hidden one (G-4.11).
func (v *view) checkCarried(from, to *resolved) error {
	cd, precise := v.door.(CarryDoor)
	if precise && cd.CarryClear(from.path, to.path) {
		return nil
	}
	check := func(sub string) error {
		old := Op{Name: OpRename, Path: from.path + sub, Write: true, Prefix: from.m.prefix}
		nu := Op{Name: OpRename, Path: to.path + sub, Write: true, Create: true, Prefix: to.m.prefix}
		if precise {
			return cd.CheckCarry(old, nu)
		}
		return CarryByOps(v.door, old, nu)
	}
	if check("") != nil {
		return EACCES
	}
	if !from.info.IsDir() {
		return nil
	}
	pending := []string{""} // directories still to list, relative to from
	for len(pending) > 0 {
		dir := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		rel := from.rel + dir
		entries, err := from.m.b.readDir(rel)
		if err != nil {
			return EACCES
		}
		for _, e := range entries {
			sub := dir + "/" + e.Name()
			if check(sub) != nil {
				return EACCES
			}
			if e.IsDir() {
				pending = append(pending, sub)
			}
		}
	}
	return nil
}

// CarryByOps judges a carried entry with a door that only answers ops (a
// Door that is no CarryDoor): the entry may move when nothing refuses it at
// its old path, or when its new path refuses it the same way (hidden stays
// hidden, a read-only entry stays read-only, a refusal keeps its reason).
func CarryByOps(d Door, old, nu Op) error {
	for _, write := range []bool{false, true} {
		old.Name, old.Write, old.Create = OpOpen, write, false
		nu.Name, nu.Write, nu.Create = OpOpen, write, false
		was := d.CheckOp(old)
		if was == nil {
			continue
		}
		now := d.CheckOp(nu)
		var wasRefused, nowRefused *RefusedError
		switch {
		case errors.Is(was, ErrHidden):
			if !errors.Is(now, ErrHidden) {
				return was
			}
		case errors.As(was, &wasRefused):
			if !errors.Is(now, ErrHidden) && (!errors.As(now, &nowRefused) || nowRefused.Reason != wasRefused.Reason) {
				return was
			}
		case now == nil:
			return was
		}
	}
	return nil
}

// onlyHidden reports whether the door hides every entry of the directory r,
// which the backend found not empty. Removing such a directory, or renaming onto it,
// must not say "Directory not empty" about a directory the session sees
// empty; it is refused with EACCES instead (G-4.5, G-4.11).
func (v *view) onlyHidden(r *resolved) bool {
	entries, err := r.m.b.readDir(r.rel)
	if err != nil {
		return false
	}
	if len(entries) == 0 {
		return true // not empty, yet the backend conceals every entry (G-5.6)
	}
	hidden := func(name string) bool {
		return errors.Is(v.door.CheckOp(Op{Name: OpStat, Path: joinPath(r.path, name), Prefix: r.m.prefix, Listing: true}), ErrHidden)
	}
	if ld, ok := v.door.(ListingDoor); ok {
		if hidden = ld.Hider(r.path); hidden == nil {
			return false
		}
	}
	for _, e := range entries {
		if !hidden(e.Name()) {
			return false
		}
	}
	return true
}

// notEmptyAnswer is the error for a directory the backend found not empty
// (ENOTEMPTY, or EEXIST as rename(2) may say): unchanged when the session
// can see an entry in it, else EACCES.
func (v *view) notEmptyAnswer(r *resolved, err error) error {
	if (errors.Is(err, ENOTEMPTY) || errors.Is(err, EEXIST)) && r.info.IsDir() && v.onlyHidden(r) {
		return EACCES
	}
	return err
}

// Location is where a path leads in a View (see Locator).
type Location struct {
	Path         string // absolute, cleaned, every symlink component resolved
	Exists       bool   // the entry is there
	ParentExists bool   // the directory that would hold it is there
}

// A Locator finds where a path leads without needing it to exist: the
// gate's questions about a command's operands before the command runs
// (where does this link lead, is this name there). The View implements it.
type Locator interface {
	// Locate resolves name as every op does (each symlink component, the
	// last one too when follow is set, judged by the door as a stat), and
	// reports what is there. A hidden path, or a link the door refuses to
	// traverse, is an error, as for Stat.
	Locate(name string, follow bool) (Location, error)
}

func (v *view) Locate(name string, follow bool) (Location, error) {
	var r resolved
	if err := v.lookup(&r, Op{Name: OpStat}, name, follow); err != nil {
		return Location{}, pathErr("stat", name, err)
	}
	return Location{Path: r.path, Exists: r.exists, ParentExists: r.exists || r.parentOK}, nil
}

// LinkFree reports whether the absolute path p certainly leads to itself
// (cleaned): no symlink exists anywhere in the VFS, or p lies in the
// synthetic tree, /dev or a memory mount that holds none, so resolving it
// would change nothing. False means only "resolve it to know" (a host mount
// always says so). It costs an atomic load, or a mount lookup once links
// exist, so the gate can ask it of every operand (G-14).
func (v *VFS) LinkFree(p string) bool {
	if v.hostMounts == 0 && v.links.Load() == 0 && p != "" && p[0] == '/' {
		return true // no link anywhere: every path leads where it says
	}
	if p == "" || p[0] != '/' || !isCleanAbs(p) {
		return false
	}
	m, _ := v.locate(p)
	return m == nil || (m.links != nil && m.links.Load() == 0)
}
