package git

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// worktree state of one tracked path, against its index entry.
type wtState int

const (
	wtSame wtState = iota
	wtModified
	wtDeleted
	wtTypeChange
)

// scan is what a walk of the worktree found: the state of each tracked
// path, the untracked paths (a directory with nothing tracked in it is
// one entry ending in "/" unless every file was asked for), and the
// tracked paths the door hides, which git then leaves alone (G-4.5).
type scan struct {
	tracked   map[string]wtState
	files     map[string]fs.FileInfo // worktree files seen, by path
	untracked []string
	hidden    map[string]bool
	// ignored are the ignored paths status --ignored lists (a directory
	// ends in "/").
	ignored []string
}

// scanner walks a worktree against an index.
type scanner struct {
	r       *repo
	entries map[string]*index.Entry
	names   []string // tracked names, sorted
	// unmerged are the conflicted names (stages 1-3 only): neither
	// tracked as a stage-0 entry is nor untracked.
	unmerged      map[string]bool
	unmergedNames []string // sorted
	idxMtime      int64    // the index file's mtime (ns): entries as new are racy
	allFiles      bool     // list untracked files one by one (-uall, add -A)
	noIgnore      bool     // read no ignore file: every untracked path counts
	// ignoredMode lists ignored paths as status --ignored does:
	// "traditional", "matching" or "" (not at all).
	ignoredMode string
	out         *scan
}

func newScanner(r *repo, idx *index.Index) *scanner {
	s := &scanner{r: r, entries: make(map[string]*index.Entry, len(idx.Entries))}
	for _, e := range idx.Entries {
		if e.Stage == stageMerged {
			s.entries[e.Name] = e
			s.names = append(s.names, e.Name)
		} else if !s.unmerged[e.Name] {
			if s.unmerged == nil {
				s.unmerged = map[string]bool{}
			}
			s.unmerged[e.Name] = true
			s.unmergedNames = append(s.unmergedNames, e.Name)
		}
	}
	if !sort.StringsAreSorted(s.names) {
		sort.Strings(s.names)
	}
	if info, err := r.g.gitfs.Stat(r.gitDir + "/index"); err == nil {
		s.idxMtime = info.ModTime().UnixNano()
	}
	return s
}

// hasTracked reports whether any tracked name lies under dir ("a/b/").
func (s *scanner) hasTracked(dir string) bool {
	i := sort.SearchStrings(s.names, dir)
	if i < len(s.names) && strings.HasPrefix(s.names[i], dir) {
		return true
	}
	j := sort.SearchStrings(s.unmergedNames, dir)
	return j < len(s.unmergedNames) && strings.HasPrefix(s.unmergedNames[j], dir)
}

// run walks the whole worktree.
func (s *scanner) run() (*scan, error) {
	n := len(s.names)
	s.out = &scan{tracked: make(map[string]wtState, n), files: make(map[string]fs.FileInfo, n), hidden: map[string]bool{}}
	var base []gitignore.Pattern
	if !s.noIgnore {
		base = s.r.excludes()
	}
	if err := s.walk("", base); err != nil {
		return nil, err
	}
	for _, name := range s.names {
		if _, seen := s.out.tracked[name]; seen {
			continue
		}
		if s.r.hiddenPath(name) {
			s.out.hidden[name] = true
			continue
		}
		s.out.tracked[name] = wtDeleted
	}
	sort.Strings(s.out.untracked)
	sort.Strings(s.out.ignored)
	return s.out, nil
}

// walk lists one worktree directory (rel is "" or ends without "/").
func (s *scanner) walk(rel string, patterns []gitignore.Pattern) error {
	if err := s.r.stopped(); err != nil {
		return err
	}
	entries, err := s.r.g.fsys.ReadDirInfo(s.r.abs(rel))
	if err != nil {
		if rel == "" {
			return err
		}
		if !errors.Is(err, fs.ErrNotExist) {
			// A directory the door lets nobody list (denied): what it
			// holds cannot be compared, so its tracked files are left
			// as they are rather than reported deleted.
			for i := sort.SearchStrings(s.names, rel+"/"); i < len(s.names) && strings.HasPrefix(s.names[i], rel+"/"); i++ {
				s.out.tracked[s.names[i]] = wtSame
			}
		}
		return nil // gone: its tracked files read as deleted
	}
	if !s.noIgnore {
		patterns = s.r.dirIgnores(rel, entries, patterns)
	}
	matcher := gitignore.NewMatcher(patterns)
	for _, d := range entries {
		name := d.Name()
		if name == ".git" {
			continue
		}
		p := joinRel(rel, name)
		info, err := d.Info()
		if err != nil {
			continue
		}
		if info.IsDir() {
			if s.hasTracked(p + "/") {
				if err := s.walk(p, patterns); err != nil {
					return err
				}
				continue
			}
			if matcher.Match(splitRel(p), true) {
				s.ignoredDir(p)
				continue
			}
			if s.allFiles {
				if err := s.walk(p, patterns); err != nil {
					return err
				}
			} else if s.hasContent(p, patterns) {
				s.out.untracked = append(s.out.untracked, p+"/")
				s.ignoredUnder(p, patterns)
			} else if s.ignoredMode == "traditional" && s.hasFiles(p) {
				s.out.ignored = append(s.out.ignored, p+"/")
			} else if s.ignoredMode == "matching" {
				s.ignoredUnder(p, patterns)
			}
			continue
		}
		if e, ok := s.entries[p]; ok {
			s.out.files[p] = info
			s.out.tracked[p] = s.compare(p, e, info)
			continue
		}
		if s.unmerged[p] {
			s.out.files[p] = info
			continue
		}
		if matcher.Match(splitRel(p), false) {
			if s.ignoredMode != "" {
				s.out.ignored = append(s.out.ignored, p)
			}
			continue
		}
		s.out.files[p] = info
		s.out.untracked = append(s.out.untracked, p)
	}
	return nil
}

// ignoredDir lists a directory an ignore pattern matches, when ignored
// paths are asked for: as one entry (traditional mode only when it holds
// a file), or with -uall in traditional mode file by file.
func (s *scanner) ignoredDir(p string) {
	switch {
	case s.ignoredMode == "matching":
		s.out.ignored = append(s.out.ignored, p+"/")
	case s.ignoredMode == "" || !s.hasFiles(p):
	case s.allFiles:
		s.filesUnder(p)
	default:
		s.out.ignored = append(s.out.ignored, p+"/")
	}
}

// ignoredUnder lists the ignored paths inside an untracked directory that
// is listed whole (its own .gitignore read): ignored files, matched
// directories, and below that the directories holding ignored files only
// (traditional) or what matches inside them (matching).
func (s *scanner) ignoredUnder(rel string, patterns []gitignore.Pattern) {
	if s.ignoredMode == "" || s.r.stopped() != nil {
		return
	}
	entries, err := s.r.g.fsys.ReadDirInfo(s.r.abs(rel))
	if err != nil {
		return
	}
	patterns = s.r.dirIgnores(rel, entries, patterns)
	matcher := gitignore.NewMatcher(patterns)
	for _, d := range entries {
		p := joinRel(rel, d.Name())
		switch {
		case !d.IsDir():
			if matcher.Match(splitRel(p), false) {
				s.out.ignored = append(s.out.ignored, p)
			}
		case d.Name() == ".git":
		case matcher.Match(splitRel(p), true):
			s.ignoredDir(p)
		case s.hasContent(p, patterns) || s.ignoredMode == "matching":
			s.ignoredUnder(p, patterns)
		case s.hasFiles(p):
			s.out.ignored = append(s.out.ignored, p+"/")
		}
	}
}

// hasFiles reports whether a directory holds a file at any depth.
func (s *scanner) hasFiles(rel string) bool {
	entries, err := s.r.g.fsys.ReadDirInfo(s.r.abs(rel))
	if err != nil || s.r.stopped() != nil {
		return false
	}
	for _, d := range entries {
		if !d.IsDir() || s.hasFiles(joinRel(rel, d.Name())) {
			return true
		}
	}
	return false
}

// filesUnder lists every file below an ignored directory as ignored.
func (s *scanner) filesUnder(rel string) {
	entries, err := s.r.g.fsys.ReadDirInfo(s.r.abs(rel))
	if err != nil || s.r.stopped() != nil {
		return
	}
	for _, d := range entries {
		if p := joinRel(rel, d.Name()); d.IsDir() {
			s.filesUnder(p)
		} else {
			s.out.ignored = append(s.out.ignored, p)
		}
	}
}

// hasContent reports whether an untracked directory holds any file that
// is not ignored (git does not show an empty or all-ignored directory).
func (s *scanner) hasContent(rel string, patterns []gitignore.Pattern) bool {
	if s.r.stopped() != nil {
		return false
	}
	entries, err := s.r.g.fsys.ReadDirInfo(s.r.abs(rel))
	if err != nil {
		return false
	}
	patterns = s.r.dirIgnores(rel, entries, patterns)
	matcher := gitignore.NewMatcher(patterns)
	for _, d := range entries {
		p := joinRel(rel, d.Name())
		if d.IsDir() {
			if d.Name() == ".git" {
				return true // a nested repository shows as its directory
			}
			if !matcher.Match(splitRel(p), true) && s.hasContent(p, patterns) {
				return true
			}
			continue
		}
		if !matcher.Match(splitRel(p), false) {
			return true
		}
	}
	return false
}

// compare decides a tracked file's state: equal size, mode and mtime
// mean unchanged (unless the entry is as new as the index, racy as git
// calls it); otherwise the content is hashed. A file the door refuses to
// read counts as modified.
func (s *scanner) compare(p string, e *index.Entry, info fs.FileInfo) wtState {
	mode := modeOf(info)
	if mode == filemode.Empty {
		return wtTypeChange
	}
	if (mode == filemode.Symlink) != (e.Mode == filemode.Symlink) {
		return wtTypeChange
	}
	if mode != e.Mode {
		return wtModified
	}
	mt := info.ModTime().UnixNano()
	if int64(e.Size) == info.Size() && e.ModifiedAt.UnixNano() == mt && mt < s.idxMtime {
		return wtSame
	}
	if uint32(info.Size()) != e.Size {
		return wtModified
	}
	h, err := s.r.hashWorkFile(p, info)
	if err != nil || h != e.Hash {
		return wtModified
	}
	return wtSame
}

// modeOf is the git mode of a worktree file (Empty for what git cannot
// track: a FIFO, a device).
func modeOf(info fs.FileInfo) filemode.FileMode {
	switch m := info.Mode(); {
	case m&fs.ModeSymlink != 0:
		return filemode.Symlink
	case m.IsRegular() && m&0o111 != 0:
		return filemode.Executable
	case m.IsRegular():
		return filemode.Regular
	case m.IsDir():
		return filemode.Dir
	}
	return filemode.Empty
}

// workContent reads what git stores for a worktree file: its bytes, or a
// symlink's target.
func (r *repo) workContent(p string, info fs.FileInfo) ([]byte, error) {
	if err := r.fits(info.Size()); err != nil {
		return nil, err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		t, err := r.g.fsys.Readlink(r.abs(p))
		return []byte(t), err
	}
	return readFile(r.g.fsys, r.abs(p))
}

// hashWorkFile is the blob id a worktree file would get.
func (r *repo) hashWorkFile(p string, info fs.FileInfo) (plumbing.Hash, error) {
	data, err := r.workContent(p, info)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return plumbing.ComputeHash(plumbing.BlobObject, data), nil
}

// hiddenPath reports whether the door hides a worktree path: its name is
// not there for the session, whatever history holds under it (G-4.5).
func (r *repo) hiddenPath(p string) bool {
	err := r.g.fsys.CheckRead(r.abs(p))
	return err != nil && errors.Is(err, fs.ErrNotExist)
}

// readablePath is nil when a worktree path's content may be shown, else
// the error a read of that path meets: ENOENT for a hidden one, the rule's
// refusal for a denied one. History is judged by its path names.
func (r *repo) readablePath(p string) error {
	return r.g.fsys.CheckRead(r.abs(p))
}

// excludes are the patterns of core.excludesFile (or the user's default
// ignore file), then of .git/info/exclude: the least binding first.
func (r *repo) excludes() []gitignore.Pattern {
	var ps []gitignore.Pattern
	if fsPath, _ := r.excludesFile(); fsPath != "" {
		if data, err := readFile(r.g.fsys, fsPath); err == nil {
			ps = parseIgnore(string(data), nil)
		}
	}
	data, err := readFile(r.g.gitfs, r.gitDir+"/info/exclude")
	if err != nil {
		return ps
	}
	return append(ps, parseIgnore(string(data), nil)...)
}

// excludesFile is the user's ignore file, as core.excludesFile names it
// (~/ is $HOME, a relative name is from the top of the worktree) or by
// default $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore: its path
// for the door and its name as check-ignore -v writes it ("" when none).
func (r *repo) excludesFile() (fsPath, src string) {
	env := r.g.env
	home := env.Getenv("HOME")
	v, ok := r.cfg.get("core.excludesfile")
	switch {
	case ok && v == "":
		return "", ""
	case ok && strings.HasPrefix(v, "~/"):
		if home == "" {
			return "", ""
		}
		src = path.Join(env.Abs(home), v[2:])
		return src, src
	case ok && path.IsAbs(v):
		return path.Clean(v), v
	case ok:
		return path.Join(r.work, v), v
	}
	if xdg := env.Getenv("XDG_CONFIG_HOME"); xdg != "" {
		src = path.Join(env.Abs(xdg), "git/ignore")
	} else if home != "" {
		src = path.Join(env.Abs(home), ".config/git/ignore")
	}
	return src, src
}

// dirIgnores adds the .gitignore of rel, when its listing has one.
func (r *repo) dirIgnores(rel string, entries []fs.DirEntry, patterns []gitignore.Pattern) []gitignore.Pattern {
	i := sort.Search(len(entries), func(i int) bool { return entries[i].Name() >= ".gitignore" })
	if i == len(entries) || entries[i].Name() != ".gitignore" {
		return patterns
	}
	data, err := readFile(r.g.fsys, r.abs(joinRel(rel, ".gitignore")))
	if err != nil {
		return patterns
	}
	more := parseIgnore(string(data), splitRel(rel))
	if len(more) == 0 {
		return patterns
	}
	return append(patterns[:len(patterns):len(patterns)], more...)
}

func parseIgnore(text string, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for _, ln := range strings.Split(text, "\n") {
		ln = strings.TrimSuffix(ln, "\r")
		if strings.TrimSpace(ln) == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(ln, domain))
	}
	return ps
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func splitRel(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// flatTree is a tree read recursively: path -> entry.
type flatEntry struct {
	Hash plumbing.Hash
	Mode filemode.FileMode
}

// flatten reads the tree h into paths (nil tree: empty).
func (r *repo) flatten(h plumbing.Hash) (map[string]flatEntry, error) {
	out := map[string]flatEntry{}
	if h.IsZero() {
		return out, nil
	}
	var walk func(h plumbing.Hash, prefix string) error
	walk = func(h plumbing.Hash, prefix string) error {
		entries, err := r.readTree(h)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := prefix + e.Name
			if e.Mode == filemode.Dir {
				if err := walk(e.Hash, p+"/"); err != nil {
					return err
				}
				continue
			}
			out[p] = flatEntry{Hash: e.Hash, Mode: e.Mode}
		}
		return nil
	}
	return out, walk(h, "")
}

// headTree is HEAD's tree, flattened (empty before the first commit).
func (r *repo) headTree() (map[string]flatEntry, error) {
	_, h, err := r.head()
	if err != nil || h.IsZero() {
		return map[string]flatEntry{}, nil
	}
	c, err := r.readCommit(h)
	if err != nil {
		return nil, err
	}
	return r.flatten(c.Tree)
}

// writeTreeFromIndex stores the index's trees and returns the root's id.
func (r *repo) writeTreeFromIndex(idx *index.Index) (plumbing.Hash, error) {
	ids, err := indexTrees(idx, func(data []byte) (plumbing.Hash, error) {
		return r.writeObject(plumbing.TreeObject, data)
	})
	return ids[""], err
}

// indexTrees builds the trees the index describes, bottom up, handing
// each to store, and returns every directory's tree id ("" is the root).
func indexTrees(idx *index.Index, store func([]byte) (plumbing.Hash, error)) (map[string]plumbing.Hash, error) {
	type dir struct {
		entries []treeEntry
		subdirs map[string]*dir
	}
	root := &dir{subdirs: map[string]*dir{}}
	for _, e := range idx.Entries {
		if e.Stage != stageMerged {
			continue
		}
		parts := strings.Split(e.Name, "/")
		d := root
		for _, p := range parts[:len(parts)-1] {
			sub, ok := d.subdirs[p]
			if !ok {
				sub = &dir{subdirs: map[string]*dir{}}
				d.subdirs[p] = sub
			}
			d = sub
		}
		d.entries = append(d.entries, treeEntry{Name: parts[len(parts)-1], Mode: e.Mode, Hash: e.Hash})
	}
	ids := map[string]plumbing.Hash{}
	var write func(d *dir, p string) (plumbing.Hash, error)
	write = func(d *dir, p string) (plumbing.Hash, error) {
		entries := d.entries
		for name, sub := range d.subdirs {
			h, err := write(sub, joinRel(p, name))
			if err != nil {
				return h, err
			}
			entries = append(entries, treeEntry{Name: name, Mode: filemode.Dir, Hash: h})
		}
		h, err := store(encodeTree(entries))
		ids[p] = h
		return h, err
	}
	_, err := write(root, "")
	return ids, err
}

// headAgainstIndex is HEAD's tree read only where it differs from the
// index: the flattened entries of every directory whose tree id differs
// from the one the index would write, and the set of those directories.
// Paths in any other directory are the same in HEAD and in the index, so
// a status of a clean index reads one tree object, not every one (git
// keeps its cached trees for the same purpose).
func (r *repo) headAgainstIndex(idx *index.Index) (map[string]flatEntry, map[string]bool, error) {
	flat, dirs := map[string]flatEntry{}, map[string]bool{}
	_, head, err := r.head()
	if err != nil || head.IsZero() {
		dirs[""] = true
		for _, e := range idx.Entries {
			dirs[path.Dir("/" + e.Name)[1:]] = true
		}
		return flat, dirs, nil
	}
	root, err := r.commitTree(head)
	if err != nil {
		return nil, nil, err
	}
	ids, err := indexTrees(idx, func(data []byte) (plumbing.Hash, error) {
		return plumbing.ComputeHash(plumbing.TreeObject, data), nil
	})
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	var walk func(tree plumbing.Hash, dir string) error
	walk = func(tree plumbing.Hash, dir string) error {
		seen[dir] = true
		if ids[dir] == tree {
			return nil
		}
		dirs[dir] = true
		entries, err := r.readTree(tree)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := joinRel(dir, e.Name)
			if e.Mode != filemode.Dir {
				flat[p] = flatEntry{Hash: e.Hash, Mode: e.Mode}
				continue
			}
			if _, inIndex := ids[p]; !inIndex {
				sub, err := r.flatten(e.Hash)
				if err != nil {
					return err
				}
				for q, fe := range sub {
					flat[p+"/"+q] = fe
					dirs[path.Dir("/" + p + "/" + q)[1:]] = true
				}
				continue
			}
			if err := walk(e.Hash, p); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, ""); err != nil {
		return nil, nil, err
	}
	// A directory only the index has (never walked, its parent
	// differing) differs too, and so does all below it: parents sort
	// before their children, so one pass settles every level.
	names := make([]string, 0, len(ids))
	for d := range ids {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		if d != "" && !seen[d] && dirs[path.Dir("/" + d)[1:]] {
			dirs[d] = true
		}
	}
	return flat, dirs, nil
}

// stageMerged is an index entry's stage outside a conflict: 0 in the file
// format (go-git's index.Merged constant says 1, which no entry carries).
const stageMerged index.Stage = 0
