package gate

import "gatehouse/core/vfs"

// Resolver returns the Resolver that answers for this profile's sessions
// over fsys: paths are followed and looked up through the profile's rules
// at the op door, so a hidden step or a hidden target reads as a path that
// is not there, exactly as the session's commands will find it. No pre_ops
// hook is asked: these lookups are the gate's, not the session's (as a
// policy's own reads are, G-8.3).
func (p *Profile) Resolver(fsys *vfs.VFS) Resolver {
	r := &viewResolver{vfs: fsys}
	if loc, ok := fsys.View(p.newDoor(nil, true)).(vfs.Locator); ok {
		r.view = loc
	}
	return r
}

// viewResolver is a Resolver over a door-checked view.
type viewResolver struct {
	vfs  *vfs.VFS
	view vfs.Locator // nil: every path is taken as spelled
}

func (r *viewResolver) Resolve(path string, follow bool) string {
	if r.view == nil || r.vfs.LinkFree(path) {
		return path // no symlink on the way: the cheap answer (G-14)
	}
	loc, err := r.view.Locate(path, follow)
	if err != nil {
		return path
	}
	return loc.Path
}

func (r *viewResolver) Presence(path string) Presence {
	if r.view == nil {
		return Present
	}
	loc, err := r.view.Locate(path, false)
	switch {
	case err != nil:
		return Absent
	case loc.Exists:
		return Present
	case loc.ParentExists:
		return Creatable
	}
	return Absent
}
