package git

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	fconfig "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"gatehouse/core/vfs"
)

// repo is an open repository: its worktree, its .git and the storage
// go-git reads and writes it with, all over the session's door.
type repo struct {
	g      *cmd
	work   string // the worktree's absolute path
	gitDir string // work + "/.git"
	st     *filesystem.Storage
	cfg    *configSet
	// decor is the ref names at each commit, for log's %d and %D.
	decor map[plumbing.Hash]string
	// date is how log and show write dates (--date).
	date dateMode
	// mergeOut is where a quiet stash still says what it merged.
	mergeOut *bufio.Writer
	// favor settles a merge's conflicting hunks with one side (-X ours
	// or theirs; "" leaves them conflicted).
	favor string
	// abbrevN is the abbreviation length once abbrevLen has computed it.
	abbrevN int
	// mm is the mailmap once loadMailmap has read it.
	mm mailmap
}

// errNotRepo is git's answer outside any repository.
var errNotRepo error = &exitError{msg: "fatal: not a git repository (or any of the parent directories): .git\n", code: 128}

// findRepo looks for .git from the cwd upwards, as git does.
func (g *cmd) findRepo() (*repo, error) {
	dir := g.env.Dir
	if g.insideGitDir(dir) {
		return nil, errInGitDir
	}
	for {
		if g.isGitDir(path.Join(dir, ".git")) {
			return g.openRepo(dir), nil
		}
		if dir == "/" {
			return nil, errNotRepo
		}
		dir = path.Dir(dir)
	}
}

// isGitDir is git's is_git_directory: a directory with objects/ and
// refs/ directories and a HEAD that is a symbolic ref ("ref: refs/...")
// or an object id. A .git holding less is passed over, as git passes it.
func (g *cmd) isGitDir(gd string) bool {
	for _, d := range []string{gd, gd + "/objects", gd + "/refs"} {
		if info, err := g.gitfs.Stat(d); err != nil || !info.IsDir() {
			return false
		}
	}
	f, err := g.gitfs.Open(gd + "/HEAD")
	if err != nil {
		return false
	}
	defer f.Close()
	head, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return false
	}
	s := strings.TrimRight(string(head), "\n")
	if ref, ok := strings.CutPrefix(s, "ref:"); ok {
		return strings.HasPrefix(strings.TrimLeft(ref, " \t"), "refs/")
	}
	return len(s) == 40 && isHex(s)
}

func (g *cmd) openRepo(work string) *repo {
	gd := path.Join(work, ".git")
	r := &repo{g: g, work: work, gitDir: gd}
	// Pack files stay open for the run (closed when git ends): opening
	// one for every object read was a quarter of a long log's time.
	r.st = filesystem.NewStorageWithOptions(newDoorFS(g.gitfs, gd), cache.NewObjectLRU(8*cache.MiByte), filesystem.Options{KeepDescriptors: true})
	g.opened = append(g.opened, r.st)
	r.cfg = g.loadConfig(gd)
	return r
}

// rel turns a worktree path (slash-separated, from the top) into the
// path git prints: relative to the cwd.
func (r *repo) rel(name string) string {
	return relPath(r.g.env.Dir, path.Join(r.work, name))
}

// relPath is target relative to dir, both absolute and clean.
func relPath(dir, target string) string {
	if dir == target {
		return "."
	}
	d := strings.Split(strings.TrimPrefix(dir, "/"), "/")
	t := strings.Split(strings.TrimPrefix(target, "/"), "/")
	if dir == "/" {
		d = nil
	}
	i := 0
	for i < len(d) && i < len(t) && d[i] == t[i] {
		i++
	}
	parts := make([]string, 0, len(d)-i+len(t)-i)
	for range d[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, t[i:]...)
	return strings.Join(parts, "/")
}

// workPath turns an operand (relative to the cwd) into a worktree path;
// ok is false outside the worktree.
func (r *repo) workPath(arg string) (string, bool) {
	p := r.g.env.Abs(arg)
	if p == r.work {
		return "", true
	}
	if !strings.HasPrefix(p, r.work+"/") {
		return "", false
	}
	return p[len(r.work)+1:], true
}

// abs is a worktree path's VFS path.
func (r *repo) abs(name string) string {
	if name == "" {
		return r.work
	}
	return r.work + "/" + name
}

// stopped is the line's end (wall time, a kill) seen by git's long walks
// over history and trees, which then stop rather than run on unseen.
func (r *repo) stopped() error {
	if ctx := r.g.env.Ctx; ctx != nil {
		return ctx.Err()
	}
	return nil
}

// readObject returns an object's type and content. Every walk of history
// or trees reads objects one by one, so the line's end is checked here.
func (r *repo) readObject(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	if err := r.stopped(); err != nil {
		return 0, nil, err
	}
	o, err := r.st.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return 0, nil, err
	}
	data, err := readAllObject(o)
	return o.Type(), data, err
}

// writeObject stores content as an object of type t (unless it is there).
func (r *repo) writeObject(t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	h := plumbing.ComputeHash(t, data)
	if r.st.HasEncodedObject(h) == nil {
		return h, nil
	}
	o := r.st.NewEncodedObject()
	o.SetType(t)
	o.SetSize(int64(len(data)))
	w, err := o.Writer()
	if err != nil {
		return h, err
	}
	if _, err := w.Write(data); err != nil {
		return h, err
	}
	if err := w.Close(); err != nil {
		return h, err
	}
	_, err = r.st.SetEncodedObject(o)
	return h, err
}

func (r *repo) readCommit(h plumbing.Hash) (*commit, error) {
	t, data, err := r.readObject(h)
	if err != nil {
		return nil, err
	}
	if t == plumbing.TagObject {
		return r.readCommit(decodeTag(data).Object)
	}
	if t != plumbing.CommitObject {
		return nil, fatalf("%s is not a commit", h)
	}
	return decodeCommit(h, data)
}

func (r *repo) readTree(h plumbing.Hash) ([]treeEntry, error) {
	t, data, err := r.readObject(h)
	if err != nil {
		return nil, err
	}
	if t == plumbing.CommitObject {
		c, err := decodeCommit(h, data)
		if err != nil {
			return nil, err
		}
		return r.readTree(c.Tree)
	}
	if t != plumbing.TreeObject {
		return nil, fatalf("not a tree object")
	}
	return decodeTree(data)
}

// head is what HEAD names: the branch's ref name (empty when detached)
// and the commit (zero when the branch has no commit yet).
func (r *repo) head() (branch plumbing.ReferenceName, h plumbing.Hash, err error) {
	ref, err := r.st.Reference(plumbing.HEAD)
	if err != nil {
		return "", plumbing.ZeroHash, err
	}
	if ref.Type() == plumbing.HashReference {
		return "", ref.Hash(), nil
	}
	branch = ref.Target()
	target, err := r.st.Reference(branch)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return branch, plumbing.ZeroHash, nil
	}
	if err != nil {
		return branch, plumbing.ZeroHash, err
	}
	return branch, target.Hash(), nil
}

// setHead moves what HEAD names (the branch, or HEAD itself when
// detached) to h.
func (r *repo) setHead(h plumbing.Hash) error {
	branch, _, err := r.head()
	if err != nil {
		return err
	}
	if branch == "" {
		branch = plumbing.HEAD
	}
	return r.st.SetReference(plumbing.NewHashReference(branch, h))
}

// loadIndex reads .git/index (an empty index when there is none).
func (r *repo) loadIndex() (*index.Index, error) {
	idx, err := r.readIndex()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return nil, fatalf("could not read the index: %s", errText(err))
		}
		return nil, fatalf("index file corrupt")
	}
	return idx, nil
}

// lockIndex takes .git/index.lock as git does before changing the index;
// the returned function releases it without writing.
func (r *repo) lockIndex() (*indexLock, error) {
	p := r.gitDir + "/index.lock"
	f, err := r.g.gitfs.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fatalf("Unable to create '%s': File exists.\n\nAnother git process seems to be running in this repository, e.g.\nan editor opened by 'git commit'. Please make sure all processes\nare terminated then try again. If it still fails, a git process\nmay have crashed in this repository earlier:\nremove the file manually to continue.", p)
		}
		return nil, fatalf("Unable to create '%s': %s.", p, errText(err))
	}
	return &indexLock{r: r, f: f, path: p}, nil
}

// indexLock is a held index.lock.
type indexLock struct {
	r    *repo
	f    vfs.File
	path string
	done bool
}

// commit writes idx into the lock file and renames it over the index.
func (l *indexLock) commit(idx *index.Index) error {
	idx.Cache = nil // the cached trees may no longer match
	idx.ResolveUndo = nil
	idx.EndOfIndexEntry = nil
	if idx.Version == 0 || idx.Version > 3 {
		idx.Version = 2
	}
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(idx); err != nil {
		l.release()
		return err
	}
	if _, err := l.f.Write(buf.Bytes()); err != nil {
		l.release()
		return fatalf("unable to write new index file")
	}
	l.f.Close()
	l.done = true
	if err := l.r.g.gitfs.Rename(l.path, l.r.gitDir+"/index"); err != nil {
		l.r.g.gitfs.Remove(l.path)
		return fatalf("unable to write new index file")
	}
	return nil
}

// release drops the lock without changing the index.
func (l *indexLock) release() {
	if l.done {
		return
	}
	l.done = true
	l.f.Close()
	l.r.g.gitfs.Remove(l.path)
}

// readFile reads a whole worktree or .git file.
func readFile(fsys vfs.FS, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// writeFile replaces a file's content.
func writeFile(fsys vfs.FS, p string, data []byte, perm fs.FileMode) error {
	f, err := fsys.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// configSet is the configuration git reads: the workspace's global file
// ($HOME/.gitconfig), then the repository's, later values winning.
type configSet struct {
	global, local *fconfig.Config
	globalPath    string
	localPath     string
	// overrides are git -c's settings, winning over both files.
	overrides map[string]string
}

func (g *cmd) loadConfig(gitDir string) *configSet {
	c := &configSet{global: fconfig.New(), local: fconfig.New(), overrides: g.overrides}
	if home := g.env.Getenv("HOME"); home != "" {
		c.globalPath = path.Join(g.env.Abs(home), ".gitconfig")
		if data, err := readFile(g.gitfs, c.globalPath); err == nil {
			fconfig.NewDecoder(bytes.NewReader(data)).Decode(c.global)
		}
	}
	if gitDir != "" {
		c.localPath = gitDir + "/config"
		if data, err := readFile(g.gitfs, c.localPath); err == nil {
			fconfig.NewDecoder(bytes.NewReader(data)).Decode(c.local)
		}
	}
	return c
}

// get returns the last value of section[.subsection].key, "" if unset.
func (c *configSet) get(key string) (string, bool) {
	if v, ok := c.overrides[strings.ToLower(key)]; ok {
		return v, true
	}
	section, sub, name := splitKey(key)
	val, ok := "", false
	for _, f := range []*fconfig.Config{c.global, c.local} {
		for _, v := range optionValues(f, section, sub, name) {
			val, ok = v, true
		}
	}
	return val, ok
}

// splitKey splits "a.b.c" into section a, subsection b, key c ("a.c" has
// no subsection).
func splitKey(key string) (section, sub, name string) {
	first := strings.IndexByte(key, '.')
	last := strings.LastIndexByte(key, '.')
	if first < 0 {
		return key, "", ""
	}
	section, name = key[:first], key[last+1:]
	if last > first {
		sub = key[first+1 : last]
	}
	return strings.ToLower(section), sub, strings.ToLower(name)
}

func optionValues(f *fconfig.Config, section, sub, name string) []string {
	var out []string
	for _, s := range f.Sections {
		if !strings.EqualFold(s.Name, section) {
			continue
		}
		opts := s.Options
		if sub != "" {
			opts = nil
			for _, ss := range s.Subsections {
				if ss.Name == sub {
					opts = append(opts, ss.Options...)
				}
			}
		}
		for _, o := range opts {
			if strings.EqualFold(o.Key, name) {
				out = append(out, o.Value)
			}
		}
	}
	return out
}

// errInGitDir is git's answer when the work tree would lie inside a
// repository's .git directory.
var errInGitDir error = &exitError{msg: "fatal: this operation must be run in a work tree\n", code: 128}

// insideGitDir reports whether dir, with every symlink resolved, is a .git
// directory or lies inside one. git never takes such a directory as a work
// tree here: its files are another repository's index and objects, which
// only git may write, and a work tree there would let checkout, mv or
// restore write them with content the agent chose (G-4.5, G-6.1).
func (g *cmd) insideGitDir(dir string) bool {
	if real, err := g.gitfs.Resolve(dir); err == nil {
		dir = real
	}
	for _, part := range strings.Split(dir, "/") {
		if part == ".git" {
			return true
		}
	}
	return false
}
