package git

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

const identityHelp = `Author identity unknown

*** Please tell me who you are.

Run

  git config --global user.email "you@example.com"
  git config --global user.name "Your Name"

to set your account's default identity.
Omit --global to set the identity only in this repository.

fatal: unable to auto-detect email address (got 'root@gatehouse.(none)')
`

// commitOptions are git commit's flags.
type commitOptions struct {
	messages               []string
	all, amend, allowEmpty bool
	quiet, noEdit          bool
	allowEmptyMessage      bool
	// paths are the files to commit as they are in the worktree (with
	// include: to add to the index before committing it all).
	paths   []string
	include bool
}

func parseCommitArgs(args []string) (commitOptions, error) {
	var o commitOptions
	dashdash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--all":
			o.all = true
		case a == "--amend":
			o.amend = true
		case a == "--allow-empty":
			o.allowEmpty = true
		case a == "--allow-empty-message":
			o.allowEmptyMessage = true
		case a == "--quiet":
			o.quiet = true
		case a == "--no-edit":
			o.noEdit = true
		case dashdash:
			o.paths = append(o.paths, a)
		case a == "--":
			dashdash = true
		case a == "--include":
			o.include = true
		case a == "--only":
		case a == "--no-verify" || a == "--verify" || a == "--no-gpg-sign" || a == "--signoff=false":
			// No hooks run here and nothing is signed.
		case strings.HasPrefix(a, "--message="):
			o.messages = append(o.messages, strings.TrimPrefix(a, "--message="))
		case a == "--message":
			if i+1 >= len(args) {
				return o, usageErr("error: option `message' requires a value\n")
			}
			i++
			o.messages = append(o.messages, args[i])
		case strings.HasPrefix(a, "--"):
			return o, unknownOption("commit", a)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// Short options run together: -am MSG, -qm MSG, -mMSG.
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'a':
					o.all = true
				case 'q':
					o.quiet = true
				case 'n':
					// -n is --no-verify: no hooks run here.
				case 'i':
					o.include = true
				case 'o':
				case 'm':
					if j+1 < len(a) {
						o.messages = append(o.messages, a[j+1:])
					} else if i+1 < len(args) {
						i++
						o.messages = append(o.messages, args[i])
					} else {
						return o, usageErr("error: switch `m' requires a value\n")
					}
					j = len(a)
				default:
					return o, unknownOption("commit", "-"+a[j:j+1])
				}
			}
		default:
			o.paths = append(o.paths, a)
		}
	}
	return o, nil
}

func runCommit(g *cmd, args []string) error {
	o, err := parseCommitArgs(args)
	if err != nil {
		return err
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	if o.all && len(o.paths) == 0 {
		if err := r.add(addOptions{update: true}); err != nil {
			return err
		}
	}
	only, err := r.preparePathCommit(o)
	if err != nil {
		return err
	}
	lock, idx, err := r.lockedIndex()
	if err != nil {
		return err
	}
	defer lock.release()
	if um := unmergedOf(idx); len(um) > 0 {
		for _, u := range um {
			fmt.Fprintf(r.g.out, "U\t%s\n", quotePath(u.path))
		}
		return &exitError{msg: "error: Committing is not possible because you have unmerged files.\n" + unmergedHint, code: 128}
	}
	branch, headHash, err := r.head()
	if err != nil {
		return err
	}
	var parents []plumbing.Hash
	var old *commit
	theirs, merging := r.mergeHead()
	if o.amend {
		if headHash.IsZero() {
			return fatalf("You have nothing to amend.")
		}
		if old, err = r.readCommit(headHash); err != nil {
			return err
		}
		parents = old.Parents
	} else if !headHash.IsZero() {
		parents = []plumbing.Hash{headHash}
		if merging {
			parents = append(parents, theirs)
		}
	}
	// A pick stopped by a conflict is committed with its message and, for
	// a cherry-pick, its commit's author.
	var picked *commit
	pick := r.pickInProgress()
	picking := !merging && !o.amend && pick != nil && !pick.head.IsZero()
	if picking && pick.name == "cherry-pick" {
		if picked, err = r.readCommit(pick.head); err != nil {
			return err
		}
	}
	squashing := false
	if (merging || picking) && !o.amend && len(o.messages) == 0 {
		o.messages = r.mergeMessage(o.noEdit)
	} else if !o.amend && len(o.messages) == 0 {
		o.messages, squashing = r.squashMessage(o.noEdit)
	} else if _, err := r.g.gitfs.Stat(r.gitDir + "/SQUASH_MSG"); err == nil && !o.amend {
		squashing = true // a commit forgets a squash's message, used or not
	}
	tree, err := r.commitTreeOf(idx, only)
	if err != nil {
		return fatalf("%s", errText(err))
	}
	parentTree := plumbing.ZeroHash
	if len(parents) > 0 {
		pc, err := r.readCommit(parents[0])
		if err != nil {
			return err
		}
		parentTree = pc.Tree
	}
	if tree == parentTree && !o.allowEmpty && !o.amend && len(parents) <= 1 {
		lock.release()
		st, _, err := r.collectStatus(false)
		if err != nil {
			return err
		}
		r.printLong(st, true)
		if picked != nil {
			return &exitError{msg: emptyPickAdvice(pick.todo != nil), code: 1}
		}
		return exitStatus(1)
	}
	if len(parents) == 0 && tree == emptyTree && !o.allowEmpty {
		lock.release()
		st, _, _ := r.collectStatus(false)
		r.printLong(st, true)
		return exitStatus(1)
	}
	msg, err := commitMessage(o, old)
	if err != nil {
		return err
	}
	author, committer, err := r.identities()
	if err != nil {
		return err
	}
	if o.amend && r.g.env.Getenv("GIT_AUTHOR_NAME") == "" && r.g.env.Getenv("GIT_AUTHOR_DATE") == "" {
		author = old.Author
	}
	if picked != nil {
		author = picked.Author
	}
	c := &commit{Tree: tree, Parents: parents, Author: author, Committer: committer, Message: msg}
	h, err := r.writeObject(plumbing.CommitObject, c.encode())
	if err != nil {
		return fatalf("%s", errText(err))
	}
	c.Hash = h
	if err := r.setHead(h); err != nil {
		return fatalf("cannot lock ref 'HEAD': %s", errText(err))
	}
	writeFile(r.g.gitfs, r.gitDir+"/COMMIT_EDITMSG", []byte(msg), 0o644)
	lock.release()
	if (merging || picking || squashing) && !o.amend {
		r.clearMergeState()
	}
	if o.quiet {
		return nil
	}
	return r.commitSummary(c, branch, parentTree, headHash.IsZero(), o.amend || picked != nil)
}

// preparePathCommit readies git commit PATHS: each must name a file git
// knows (the index's or HEAD's, one the session sees); their worktree
// changes are staged (git add -u PATHS). It returns the pathspecs whose
// files alone go into the commit (nil with --include, which commits the
// whole index, or without paths).
func (r *repo) preparePathCommit(o commitOptions) ([]pathspec, error) {
	if len(o.paths) == 0 {
		return nil, nil
	}
	if o.all {
		return nil, fatalf("paths '%s ...' with -a does not make sense", o.paths[0])
	}
	if _, merging := r.mergeHead(); merging && !o.include {
		return nil, fatalf("cannot do a partial commit during a merge.")
	}
	specs, err := r.pathspecs(o.paths)
	if err != nil {
		return nil, err
	}
	known, err := r.headTree()
	if err != nil {
		return nil, err
	}
	idx, err := r.loadIndex()
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for p := range known {
		names[p] = true
	}
	for _, e := range idx.Entries {
		names[e.Name] = true
	}
	for _, sp := range specs {
		found := false
		for p := range names {
			if !found && sp.match(p) && !r.hiddenPath(p) {
				found = true
			}
		}
		if !found {
			return nil, &exitError{msg: fmt.Sprintf("error: pathspec '%s' did not match any file(s) known to git\n", sp.arg), code: 1}
		}
	}
	if err := r.add(addOptions{update: true, paths: o.paths}); err != nil {
		return nil, err
	}
	if o.include {
		return nil, nil
	}
	return specs, nil
}

// commitTreeOf is the tree a commit records: the index's, or with only
// (git commit PATHS) HEAD's with the index's versions of those paths
// alone (a hidden path keeps HEAD's).
func (r *repo) commitTreeOf(idx *index.Index, only []pathspec) (plumbing.Hash, error) {
	if only == nil {
		return r.writeTreeFromIndex(idx)
	}
	tree, err := r.headTree()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	staged := indexFlat(idx)
	for p := range tree {
		if _, ok := staged[p]; !ok && matchAny(only, p) && !r.hiddenPath(p) {
			delete(tree, p)
		}
	}
	for p, e := range staged {
		if matchAny(only, p) && !r.hiddenPath(p) {
			tree[p] = e
		}
	}
	return r.writeFlatTree(tree)
}

// emptyPickAdvice is git's word when a cherry-pick's resolution left
// nothing to commit.
func emptyPickAdvice(seq bool) string {
	const advice = "The previous cherry-pick is now empty, possibly due to conflict resolution.\nIf you wish to commit it anyway, use:\n\n    git commit --allow-empty\n\n"
	if seq {
		return advice + "and then use:\n\n    git cherry-pick --continue\n\nto resume cherry-picking the remaining commits.\nIf you wish to skip this commit, use:\n\n    git cherry-pick --skip\n\n"
	}
	return advice + "Otherwise, please use 'git cherry-pick --skip'\n"
}

// mergeMessage is the message a merge in progress proposes (MERGE_MSG):
// kept whole with --no-edit, as git keeps it; otherwise as an editor
// that saved it unchanged would leave it, its comment lines stripped
// (there is no editor here to open).
func (r *repo) mergeMessage(noEdit bool) []string {
	data, err := readFile(r.g.gitfs, r.gitDir+"/MERGE_MSG")
	if err != nil {
		return nil
	}
	return proposedMessage(data, noEdit)
}

// squashMessage is the message a merge --squash proposes: SQUASH_MSG,
// then MERGE_MSG when it stopped with conflicts (ok: there is one).
func (r *repo) squashMessage(noEdit bool) (msgs []string, ok bool) {
	data, err := readFile(r.g.gitfs, r.gitDir+"/SQUASH_MSG")
	if err != nil {
		return nil, false
	}
	if more, err := readFile(r.g.gitfs, r.gitDir+"/MERGE_MSG"); err == nil {
		data = append(data, more...)
	}
	return proposedMessage(data, noEdit), true
}

// proposedMessage is a proposed message as committed: whole with
// --no-edit, else as an editor saving it unchanged would leave it.
func proposedMessage(data []byte, noEdit bool) []string {
	if noEdit {
		return []string{string(data)}
	}
	var kept []string
	for _, ln := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(ln, "#") {
			kept = append(kept, ln)
		}
	}
	return []string{strings.Join(kept, "\n")}
}

// emptyTree is the id of the tree with no entries,
// 4b825dc642cb6eb9a060e54bf8d69288fbee4904, written out so that no hash is
// computed at start-up (TestEmptyObjectIDs checks it).
var emptyTree = plumbing.Hash{0x4b, 0x82, 0x5d, 0xc6, 0x42, 0xcb, 0x6e, 0xb9, 0xa0, 0x60, 0xe5, 0x4b, 0xf8, 0xd6, 0x92, 0x88, 0xfb, 0xee, 0x49, 0x04}

// emptyBlob is the id of the empty file, which git never pairs as a rename:
// e69de29bb2d1d6434b8b29ae775ad8c2e48c5391.
var emptyBlob = plumbing.Hash{0xe6, 0x9d, 0xe2, 0x9b, 0xb2, 0xd1, 0xd6, 0x43, 0x4b, 0x8b, 0x29, 0xae, 0x77, 0x5a, 0xd8, 0xc2, 0xe4, 0x8c, 0x53, 0x91}

// commitMessage builds the message from -m paragraphs (or the amended
// commit's with --no-edit) and cleans it as git's "whitespace" mode does.
func commitMessage(o commitOptions, old *commit) (string, error) {
	if len(o.messages) == 0 {
		if old != nil && o.noEdit {
			return old.Message, nil
		}
		if old != nil {
			return old.Message, nil
		}
		return "", &exitError{msg: "Aborting commit due to empty commit message.\n", code: 1}
	}
	msg := cleanMessage(strings.Join(o.messages, "\n\n"))
	if msg == "" && !o.allowEmptyMessage {
		return "", &exitError{msg: "Aborting commit due to empty commit message.\n", code: 1}
	}
	return msg, nil
}

// cleanMessage strips trailing spaces from lines, collapses runs of blank
// lines, drops leading and trailing blank lines, and ends with "\n".
func cleanMessage(m string) string {
	var out []string
	blank := false
	for _, ln := range strings.Split(m, "\n") {
		ln = strings.TrimRight(ln, " \t\r")
		if ln == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, ln)
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// identities are the author and committer: GIT_AUTHOR_* and
// GIT_COMMITTER_* first, then user.name and user.email, with dates from
// GIT_AUTHOR_DATE and GIT_COMMITTER_DATE or the clock.
func (r *repo) identities() (author, committer signature, err error) {
	name, _ := r.g.configValue(r.cfg, "user.name")
	email, _ := r.g.configValue(r.cfg, "user.email")
	pick := func(envName, envEmail, envDate string) (signature, error) {
		s := signature{Name: name, Email: email}
		if v := r.g.env.Getenv(envName); v != "" {
			s.Name = v
		}
		if v := r.g.env.Getenv(envEmail); v != "" {
			s.Email = v
		}
		if s.Email == "" || s.Name == "" {
			return s, &exitError{msg: identityHelp, code: 128}
		}
		s.When = time.Now().UTC().Truncate(time.Second)
		if v := r.g.env.Getenv(envDate); v != "" {
			t, ok := parseGitDate(v)
			if !ok {
				return s, fatalf("invalid date format: %s", v)
			}
			s.When = t
		}
		return s, nil
	}
	if author, err = pick("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE"); err != nil {
		return
	}
	committer, err = pick("GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE")
	return
}

// parseGitDate reads the date forms git accepts most often: "@UNIX [+ZZZZ]",
// "UNIX +ZZZZ", ISO 8601 and RFC 2822.
func parseGitDate(v string) (time.Time, bool) {
	v = strings.TrimSpace(v)
	fields := strings.Fields(strings.TrimPrefix(v, "@"))
	if len(fields) >= 1 && len(fields) <= 2 {
		if sec, err := strconv.ParseInt(fields[0], 10, 64); err == nil && (strings.HasPrefix(v, "@") || len(fields) == 2) {
			loc := time.UTC
			if len(fields) == 2 {
				loc = parseZone(fields[1])
			}
			return time.Unix(sec, 0).In(loc), true
		}
	}
	layouts := []string{
		time.RFC3339, "2006-01-02T15:04:05-0700", "2006-01-02T15:04:05", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05Z07:00",
		"2006-01-02 15:04:05", time.RFC1123Z, "Mon, 2 Jan 2006 15:04:05 -0700", "Mon Jan 2 15:04:05 2006 -0700",
		"2006-01-02",
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, v); err == nil {
			_, off := t.Zone()
			return t.In(time.FixedZone("", off)), true
		}
	}
	return time.Time{}, false
}

// commitSummary prints git's "[branch id] subject" and the diffstat
// summary with the created and deleted modes.
func (r *repo) commitSummary(c *commit, branch plumbing.ReferenceName, parentTree plumbing.Hash, root, amend bool) error {
	where := "detached HEAD"
	if branch != "" {
		where = branch.Short()
	}
	if root {
		where += " (root-commit)"
	}
	fmt.Fprintf(r.g.out, "[%s %s] %s\n", where, r.abbrev(c.Hash), c.subject())
	if c.Author.Name != c.Committer.Name || c.Author.Email != c.Committer.Email {
		fmt.Fprintf(r.g.out, " Author: %s <%s>\n", c.Author.Name, c.Author.Email)
	}
	if amend {
		fmt.Fprintf(r.g.out, " Date: %s\n", gitDate(c.Author.When))
	}
	if len(c.Parents) > 1 {
		return nil // a merge's summary is its subject line alone
	}
	changes, err := r.treeChanges(parentTree, c.Tree)
	if err != nil {
		return err
	}
	files, added, deleted := 0, 0, 0
	for _, ch := range changes {
		files++
		a, d := ch.counts[0], ch.counts[1]
		added += a
		deleted += d
	}
	if files > 0 {
		r.g.out.WriteString(shortStat(files, added, deleted) + "\n")
	}
	for _, ch := range changes {
		switch {
		case ch.from != "":
			fmt.Fprintf(r.g.out, " rename %s (%d%%)\n", renameName(ch.from, ch.path), percent(ch.score))
			if ch.old.Mode != ch.new.Mode {
				fmt.Fprintf(r.g.out, " mode change %o => %o %s\n", uint32(ch.old.Mode), uint32(ch.new.Mode), quotePath(ch.path))
			}
		case ch.old.Hash.IsZero():
			fmt.Fprintf(r.g.out, " create mode %o %s\n", uint32(ch.new.Mode), quotePath(ch.path))
		case ch.new.Hash.IsZero():
			fmt.Fprintf(r.g.out, " delete mode %o %s\n", uint32(ch.old.Mode), quotePath(ch.path))
		case ch.old.Mode != ch.new.Mode:
			fmt.Fprintf(r.g.out, " mode change %o => %o %s\n", uint32(ch.old.Mode), uint32(ch.new.Mode), quotePath(ch.path))
		}
	}
	return nil
}

// shortStat is git's " N files changed, X insertions(+), Y deletions(-)".
func shortStat(files, added, deleted int) string {
	s := fmt.Sprintf(" %d file%s changed", files, plural(files))
	if added > 0 || deleted == 0 {
		s += fmt.Sprintf(", %d insertion%s(+)", added, plural(added))
	}
	if deleted > 0 || added == 0 {
		s += fmt.Sprintf(", %d deletion%s(-)", deleted, plural(deleted))
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// fileChange is one path's change between two trees, with its line
// counts (zero for binary content).
type fileChange struct {
	path     string
	from     string    // the old path of a rename ("" otherwise)
	old, new flatEntry // zero Hash where the side has no file
	binary   bool
	counts   [2]int   // added, deleted
	sizes    [2]int64 // old and new content sizes, for binary stats
	// refused is the door's refusal to read the worktree path of this
	// name (a denied path): its content is neither counted nor shown.
	refused error
	// score is a rename's similarity, up to maxScore (identical).
	score int
	// conflict marks a conflicted path (the index has its stages, not
	// one entry); sides are our and their versions when a combined
	// diff of the worktree's file (new) can show it.
	conflict bool
	sides    [2]flatEntry
	// ourSide is a conflicted path's worktree file against our version,
	// which git lists (names, stat) after the conflict but never as a
	// patch.
	ourSide bool
}

// treeChanges lists what differs between two trees (zero: empty), paths
// the door hides left out (G-4.5).
func (r *repo) treeChanges(from, to plumbing.Hash) ([]fileChange, error) {
	return r.treeChangesIn(from, to, nil)
}

// treeChangesIn is treeChanges limited to the paths specs match (all
// when none), limited before renames are paired as git limits them: a
// file renamed from outside the paths is an addition.
func (r *repo) treeChangesIn(from, to plumbing.Hash, specs []pathspec) ([]fileChange, error) {
	a, b, err := r.flattenPair(from, to)
	if err != nil {
		return nil, err
	}
	if len(specs) > 0 {
		for _, side := range []map[string]flatEntry{a, b} {
			for p := range side {
				if !matchAny(specs, p) {
					delete(side, p)
				}
			}
		}
	}
	return r.flatChanges(a, b, nil)
}

// blobLoader gives a side's content; nil loads blobs from the store.
type blobLoader func(p string, e flatEntry) ([]byte, error)

// flatChanges compares two flattened sides and counts lines. Deletions
// and additions are paired into renames (identical or similar content).
func (r *repo) flatChanges(a, b map[string]flatEntry, loadB blobLoader) ([]fileChange, error) {
	paths := differing(a, b)
	// Similar content can pair only when there are both deletions and
	// additions of regular files: only then are fingerprints taken.
	dels, adds := false, false
	for _, p := range paths {
		oe, ne := a[p], b[p]
		dels = dels || ne.Mode == 0 && isFileMode(oe.Mode)
		adds = adds || oe.Mode == 0 && isFileMode(ne.Mode)
	}
	var prints map[int]*fingerprint
	if dels && adds {
		prints = map[int]*fingerprint{}
	}
	var out []fileChange
	for _, p := range paths {
		ch := fileChange{path: p, old: a[p], new: b[p]}
		if err := r.readablePath(p); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // hidden: not there for git either
			}
			ch.refused = err
			out = append(out, ch)
			continue
		}
		oldData, err := r.blob(ch.old.Hash)
		if err != nil {
			return nil, err
		}
		var newData []byte
		if loadB != nil && !ch.new.Hash.IsZero() {
			if newData, err = loadB(p, ch.new); err != nil {
				ch.refused = err
				out = append(out, ch)
				continue
			}
		} else if newData, err = r.blob(ch.new.Hash); err != nil {
			return nil, err
		}
		ch.sizes = [2]int64{int64(len(oldData)), int64(len(newData))}
		if isBinary(oldData) || isBinary(newData) {
			ch.binary = true
		} else if ch.old.Mode != filemode.Submodule && ch.new.Mode != filemode.Submodule {
			ch.counts[0], ch.counts[1] = lineCounts(oldData, newData)
		}
		switch {
		case prints == nil:
		case ch.new.Mode == 0 && isFileMode(ch.old.Mode):
			prints[len(out)] = newFingerprint(oldData)
		case ch.old.Mode == 0 && isFileMode(ch.new.Mode):
			prints[len(out)] = newFingerprint(newData)
		}
		out = append(out, ch)
	}
	out = pairRenames(out, prints, func(w string) { r.g.errw.Write([]byte(w)) })
	for i := range out {
		if c := &out[i]; c.from != "" && c.old.Hash != c.new.Hash {
			if err := r.countRename(c, loadB); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// countRename counts the lines an edited rename adds and deletes.
func (r *repo) countRename(c *fileChange, loadB blobLoader) error {
	oldData, err := r.blob(c.old.Hash)
	if err != nil {
		return err
	}
	var newData []byte
	if loadB != nil {
		newData, err = loadB(c.path, c.new)
	} else {
		newData, err = r.blob(c.new.Hash)
	}
	if err != nil {
		return err
	}
	c.binary = isBinary(oldData) || isBinary(newData)
	if !c.binary {
		c.counts[0], c.counts[1] = lineCounts(oldData, newData)
	}
	return nil
}

// blob is a blob's content (nil for the zero id).
func (r *repo) blob(h plumbing.Hash) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	if n, err := r.st.EncodedObjectSize(h); err == nil {
		if err := r.fits(n); err != nil {
			return nil, err
		}
	}
	_, data, err := r.readObject(h)
	return data, err
}

// fits checks that n more bytes fit in the line's memory budget now,
// without keeping them charged: one file or object larger than what is
// left ends the line before it is read (G-12.3).
func (r *repo) fits(n int64) error {
	if err := r.g.env.Grow(n); err != nil {
		return err
	}
	r.g.env.Grow(-n)
	return nil
}
