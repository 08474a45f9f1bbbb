package git

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// lsFilesOptions are git ls-files' flags.
type lsFilesOptions struct {
	cached, stage, modified, deleted, others, unmerged bool
	excludeStd, directory, ignored, fullName, tags     bool
	errorUnmatch, nul, dedup                           bool
	paths                                              []string
}

// parseLsFilesArgs reads ls-files' options; short ones may run together
// ("-co", "-sz").
func parseLsFilesArgs(args []string) (lsFilesOptions, error) {
	var o lsFilesOptions
	long := map[string]*bool{
		"--cached": &o.cached, "--stage": &o.stage, "--modified": &o.modified, "--deleted": &o.deleted,
		"--others": &o.others, "--unmerged": &o.unmerged, "--exclude-standard": &o.excludeStd,
		"--directory": &o.directory, "--ignored": &o.ignored, "--full-name": &o.fullName,
		"--error-unmatch": &o.errorUnmatch, "--deduplicate": &o.dedup,
	}
	short := map[byte]*bool{'c': &o.cached, 's': &o.stage, 'm': &o.modified, 'd': &o.deleted, 'o': &o.others,
		'u': &o.unmerged, 'i': &o.ignored, 't': &o.tags, 'z': &o.nul}
	for i, a := range args {
		if a == "--" {
			o.paths = append(o.paths, args[i+1:]...)
			break
		}
		if f, ok := long[a]; ok {
			*f = true
			continue
		}
		if a == "--no-empty-directory" {
			continue
		}
		if strings.HasPrefix(a, "--") {
			return o, unknownOption("ls-files", a)
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			for j := 1; j < len(a); j++ {
				f, ok := short[a[j]]
				if !ok {
					return o, unknownOption("ls-files", "-"+a[j:j+1])
				}
				*f = true
			}
			continue
		}
		o.paths = append(o.paths, a)
	}
	if o.unmerged {
		o.stage = true
	}
	if !o.modified && !o.deleted && !o.others && !o.stage {
		o.cached = true
	}
	return o, nil
}

// runLsFiles is git ls-files: the index's paths (-s with their modes, ids
// and stages; -u the conflicted ones), the worktree's deleted (-d) and
// modified (-m) ones, untracked ones first (-o, --directory, -i ignored
// ones with --exclude-standard), -t's tags, relative to the current
// directory (--full-name: to the top), quoted unless -z ends each with
// NUL; --error-unmatch fails on a path that matches nothing. A path the
// door hides is never listed nor matched.
func runLsFiles(g *cmd, args []string) error {
	o, err := parseLsFilesArgs(args)
	if err != nil {
		return err
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	if o.ignored && !o.excludeStd {
		return fatalf("ls-files -i must be used with either -o or -c")
	}
	specs, err := r.pathspecs(o.paths)
	if err != nil {
		return err
	}
	limit := specs
	if len(limit) == 0 {
		if sub, _ := r.workPath("."); sub != "" {
			limit = []pathspec{{path: sub}}
		}
	}
	idx, err := r.loadIndex()
	if err != nil {
		return err
	}
	s := newScanner(r, idx)
	s.allFiles = !o.directory
	s.noIgnore = !o.excludeStd
	if o.ignored {
		s.ignoredMode = "traditional"
	}
	sc, err := s.run()
	if err != nil {
		return err
	}
	matched := make([]bool, len(specs))
	show := func(p string) bool {
		p = strings.TrimSuffix(p, "/")
		if len(limit) == 0 {
			return true
		}
		any := false
		for i, sp := range limit {
			if sp.match(p) {
				any = true
				if i < len(matched) && len(specs) > 0 {
					matched[i] = true
				}
			}
		}
		return any
	}
	r.lsFilesPrint(o, idx, sc, show)
	if o.errorUnmatch {
		for i, sp := range specs {
			if !matched[i] {
				r.g.out.Flush()
				return &exitError{msg: fmt.Sprintf("error: pathspec '%s' did not match any file(s) known to git\nDid you forget to 'git add'?\n", sp.arg), code: 1}
			}
		}
	}
	return nil
}

// lsFilesPrint writes ls-files' lines in git's order: untracked (or
// ignored) paths first, then the index's entries.
func (r *repo) lsFilesPrint(o lsFilesOptions, idx *index.Index, sc *scan, show func(string) bool) {
	out := r.g.out
	name := func(p string) string {
		if !o.fullName {
			p = r.rel(p)
		}
		if o.nul {
			return p
		}
		return quotePath(p)
	}
	end := "\n"
	if o.nul {
		end = "\x00"
	}
	tag := func(t string) string {
		if o.tags {
			return t + " "
		}
		return ""
	}
	if o.others {
		list := sc.untracked
		if o.ignored {
			list = sc.ignored
		}
		for _, p := range list {
			if show(p) {
				n := name(strings.TrimSuffix(p, "/"))
				if strings.HasSuffix(p, "/") {
					n = name(strings.TrimSuffix(p, "/")) + "/"
				}
				out.WriteString(tag("?") + n + end)
			}
		}
	}
	if !(o.cached || o.stage || o.deleted || o.modified) {
		return
	}
	last := ""
	for _, e := range idx.Entries {
		if sc.hidden[e.Name] || !show(e.Name) || o.dedup && e.Name == last {
			continue
		}
		last = e.Name
		n := name(e.Name)
		shown := false
		if (o.cached || o.stage) && (!o.unmerged || e.Stage != stageMerged) && !o.ignored {
			t := "H"
			if e.Stage != stageMerged {
				t = "M"
			}
			if o.stage {
				fmt.Fprintf(out, "%s%06o %s %d\t%s%s", tag(t), uint32(e.Mode), e.Hash, e.Stage, n, end)
			} else {
				out.WriteString(tag(t) + n + end)
			}
			shown = true
		}
		// A conflicted path's stages are modified (their stat data is
		// none), and deleted when its file is gone.
		_, onDisk := sc.files[e.Name]
		st := sc.tracked[e.Name]
		gone := st == wtDeleted || e.Stage != stageMerged && !onDisk
		if o.deleted && gone && !(o.dedup && shown) {
			out.WriteString(tag("R") + n + end)
			shown = true
		}
		if o.modified && (st != wtSame || e.Stage != stageMerged) && !(o.dedup && shown) {
			out.WriteString(tag("C") + n + end)
		}
	}
}
