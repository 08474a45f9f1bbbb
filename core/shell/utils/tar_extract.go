package utils

import (
	"archive/tar"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"
)

// tarRead lists (-t) or extracts (-x) an archive.
func tarRead(t *tool, cfg *tarConfig) {
	data := tarInput(t, cfg)
	if data == nil && cfg.fatal {
		return
	}
	members := tarMembers(t, cfg, data)
	if cfg.fatal && len(members) == 0 {
		return
	}
	found := make([]bool, len(cfg.names))
	var chosen []tarMember
	for _, m := range members {
		if tarSelected(cfg.names, found, m.hdr.Name) {
			chosen = append(chosen, m)
		}
	}
	if cfg.mode == 't' {
		tarList(t, cfg, chosen)
	} else {
		tarExtract(t, cfg, chosen)
	}
	for i, ok := range found {
		if !ok {
			t.warn(cfg.names[i] + ": Not found in archive")
			cfg.failed = true
		}
	}
}

// tarSelected: with no names every member; else a member named, or inside
// a directory named.
func tarSelected(names []string, found []bool, member string) bool {
	if len(names) == 0 {
		return true
	}
	m := strings.TrimSuffix(member, "/")
	hit := false
	for i, n := range names {
		n = strings.TrimSuffix(n, "/")
		if m == n || strings.HasPrefix(m, n+"/") {
			found[i], hit = true, true
		}
	}
	return hit
}

// tarList prints the members, names as they are stored.
func tarList(t *tool, cfg *tarConfig, members []tarMember) {
	width := 19
	for _, m := range members {
		if t.stopped() {
			return
		}
		tarSafeName(t, cfg, m.hdr.Name, "member names")
		hdr := *m.hdr
		if hdr.Typeflag == tar.TypeLink {
			hdr.Linkname = tarSafeName(t, cfg, hdr.Linkname, "hard link targets")
		}
		if cfg.verbose {
			t.writeString(tarListLine(t, &hdr, &width))
		} else {
			t.writeString(hdr.Name + "\n")
		}
	}
}

// tarPlan is one member to extract: where it goes.
type tarPlan struct {
	m    tarMember
	name string // the safe, stripped name (messages)
	dest string // absolute
}

// tarExtract writes the members below the base directory. Every
// destination is asked of the door first: if any would be refused,
// nothing is written. Symlinks that point up or out are made last, as
// GNU tar makes them (a placeholder file holds their place), so no later
// member is written through them.
func tarExtract(t *tool, cfg *tarConfig, members []tarMember) {
	base := cfg.base(t)
	var plans []tarPlan
	for _, m := range members {
		name := tarSafeName(t, cfg, m.hdr.Name, "member names")
		if tarHasDotDot(m.hdr.Name) {
			t.warn(m.hdr.Name + ": Member name contains '..'")
			cfg.failed = true
			continue
		}
		if cfg.strip > 0 {
			parts := strings.Split(strings.TrimSuffix(name, "/"), "/")
			if len(parts) <= cfg.strip {
				continue
			}
			name = strings.Join(parts[cfg.strip:], "/")
		}
		plans = append(plans, tarPlan{m: m, name: strings.TrimSuffix(name, "/"), dest: path.Join(base, name)})
	}
	if cfg.toStdout {
		for _, p := range plans {
			if cfg.verbose {
				t.writeString(p.m.hdr.Name + "\n")
			}
			t.write(p.m.data)
		}
		return
	}
	refused := false
	for _, p := range plans {
		if p.name == "." {
			continue
		}
		// A missing directory on the way is made as the member is
		// written, and judged then: only a refusal stops everything.
		err := t.env.FS.CheckCreate(p.dest)
		if p.m.hdr.Typeflag == tar.TypeDir && isErrno(err, syscall.EISDIR) {
			continue // a directory that is there already is kept
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.warn(p.name + ": Cannot open: " + errText(err))
			refused = true
		}
	}
	if refused {
		cfg.failed = true
		return
	}
	x := &tarExtractor{t: t, cfg: cfg, base: base}
	for _, p := range plans {
		if t.stopped() {
			return
		}
		if cfg.verbose {
			t.writeString(p.m.hdr.Name + "\n")
		}
		x.one(p)
	}
	x.finish()
}

// tarExtractor is the state of one extraction.
type tarExtractor struct {
	t       *tool
	cfg     *tarConfig
	base    string
	dirs    []tarPlan // directories: modes and times set at the end
	delayed []tarPlan // symlinks made at the end over their placeholders
}

// one extracts a member.
func (x *tarExtractor) one(p tarPlan) {
	t, fsys, hdr := x.t, x.t.env.FS, p.m.hdr
	if p.name == "." && hdr.Typeflag == tar.TypeDir {
		return
	}
	if err := x.parents(p.dest); err != nil {
		x.fail(p.name + ": Cannot open: " + errText(err))
		return
	}
	switch hdr.Typeflag {
	case tar.TypeDir:
		if err := fsys.Mkdir(p.dest, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			x.fail(p.name + ": Cannot mkdir: " + errText(err))
			return
		}
		x.dirs = append(x.dirs, p)
	case tar.TypeReg: // archive/tar reads the old '\x00' type as TypeReg
		x.file(p, p.m.data, fs.FileMode(hdr.Mode).Perm(), hdr.ModTime)
	case tar.TypeSymlink:
		if !x.replace(p) {
			return
		}
		if strings.HasPrefix(hdr.Linkname, "/") || tarHasDotDot(hdr.Linkname) {
			x.file(p, nil, 0, time.Time{})
			x.delayed = append(x.delayed, p)
			return
		}
		if err := fsys.Symlink(hdr.Linkname, p.dest); err != nil {
			x.fail(p.name + ": Cannot create symlink to " + quoteLocale(hdr.Linkname) + ": " + errText(err))
		}
	case tar.TypeLink:
		target := tarSafeName(t, x.cfg, hdr.Linkname, "hard link targets")
		if !x.replace(p) {
			return
		}
		if tarHasDotDot(hdr.Linkname) && target == hdr.Linkname {
			x.fail(p.name + ": Cannot hard link to " + quoteLocale(target) + ": Invalid argument")
			return
		}
		if err := fsys.Link(path.Join(x.base, target), p.dest); err != nil {
			x.fail(p.name + ": Cannot hard link to " + quoteLocale(target) + ": " + errText(err))
		}
	default:
		x.fail(p.name + ": Cannot mknod: Operation not permitted")
	}
}

func (x *tarExtractor) fail(msg string) {
	x.t.warn(msg)
	x.cfg.failed = true
}

// parents makes the directories above dest that are missing.
func (x *tarExtractor) parents(dest string) error {
	dir := path.Dir(dest)
	if _, err := x.t.env.FS.Stat(dir); err == nil || dir == x.base || dir == "/" {
		return nil
	}
	if err := x.parents(dir); err != nil {
		return err
	}
	if err := x.t.env.FS.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// replace removes what stands where a member goes (-k: refuses); false
// means the member is not extracted.
func (x *tarExtractor) replace(p tarPlan) bool {
	fsys := x.t.env.FS
	info, err := fsys.Lstat(p.dest)
	if err != nil {
		return true
	}
	if x.cfg.keepOld {
		x.fail(p.name + ": Cannot open: File exists")
		return false
	}
	if info.IsDir() {
		x.fail(p.name + ": Cannot open: Is a directory")
		return false
	}
	if err := fsys.Remove(p.dest); err != nil {
		x.fail(p.name + ": Cannot unlink: " + errText(err))
		return false
	}
	return true
}

// file writes a regular file (or a symlink's placeholder) with its mode
// and time.
func (x *tarExtractor) file(p tarPlan, data []byte, mode fs.FileMode, mtime time.Time) {
	fsys := x.t.env.FS
	if p.m.hdr.Typeflag != tar.TypeSymlink && !x.replace(p) {
		return
	}
	f, err := fsys.OpenFile(p.dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		x.fail(p.name + ": Cannot open: " + errText(err))
		return
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		x.fail(p.name + ": Cannot write: " + errText(err))
		return
	}
	fsys.Chmod(p.dest, mode)
	if !mtime.IsZero() {
		fsys.Chtimes(p.dest, mtime, mtime)
	}
}

// finish makes the delayed symlinks and gives directories their modes
// and times, deepest first.
func (x *tarExtractor) finish() {
	fsys := x.t.env.FS
	for _, p := range x.delayed {
		info, err := fsys.Lstat(p.dest)
		if err != nil || !info.Mode().IsRegular() || info.Size() != 0 {
			continue // the placeholder was replaced meanwhile
		}
		if err := fsys.Remove(p.dest); err != nil {
			x.fail(p.name + ": Cannot unlink: " + errText(err))
			continue
		}
		if err := fsys.Symlink(p.m.hdr.Linkname, p.dest); err != nil {
			x.fail(p.name + ": Cannot create symlink to " + quoteLocale(p.m.hdr.Linkname) + ": " + errText(err))
		}
	}
	for i := len(x.dirs) - 1; i >= 0; i-- {
		p := x.dirs[i]
		fsys.Chmod(p.dest, fs.FileMode(p.m.hdr.Mode).Perm())
		fsys.Chtimes(p.dest, p.m.hdr.ModTime, p.m.hdr.ModTime)
	}
}
