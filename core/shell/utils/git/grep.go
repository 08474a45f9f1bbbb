package git

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"gatehouse/core/shell/utils"
)

// grepOptions are git grep's flags.
type grepOptions struct {
	dialect                              utils.RegexDialect
	fixed, ignoreCase, word, invert      bool
	lineNumbers, count, namesOnly, quiet bool
	noName, cached                       bool
	patterns, paths                      []string
}

// runGrep is git grep: lines of the tracked files (the worktree's
// versions, or the index's with --cached) that match, from the current
// directory down unless paths say otherwise. Paths the door hides are not
// searched; a denied file is named with the door's reason (G-4.5).
func runGrep(g *cmd, args []string) error {
	o, err := parseGrepArgs(args)
	if err != nil {
		return err
	}
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	re, err := o.compile()
	if err != nil {
		return err
	}
	idx, err := r.loadIndex()
	if err != nil {
		return err
	}
	paths := o.paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	specs, err := r.pathspecs(paths)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range idx.Entries {
		if e.Stage == stageMerged && matchAny(specs, e.Name) && !r.hiddenPath(e.Name) {
			names = append(names, e.Name)
		}
	}
	sort.Strings(names)
	entries := indexFlat(idx)
	found := false
	for _, p := range names {
		if err := r.stopped(); err != nil {
			return err
		}
		var data []byte
		if o.cached {
			data, err = r.blob(entries[p].Hash)
		} else if info, lerr := g.fsys.Lstat(r.abs(p)); lerr != nil {
			continue // gone from the worktree
		} else {
			data, err = r.workContent(p, info)
		}
		if err != nil {
			g.out.Flush()
			fmt.Fprintf(g.errw, "error: '%s': %s\n", r.rel(p), errText(err))
			continue
		}
		if r.grepFile(p, data, re, o) {
			found = true
			if o.quiet {
				return nil
			}
		}
	}
	if !found {
		return exitStatus(1)
	}
	return nil
}

func parseGrepArgs(args []string) (grepOptions, error) {
	var o grepOptions
	dashdash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case dashdash:
			o.paths = append(o.paths, a)
		case a == "--":
			dashdash = true
		case a == "-e" || a == "--regexp":
			if i+1 >= len(args) {
				return o, usageErr("error: switch `e' requires a value\n")
			}
			i++
			o.patterns = append(o.patterns, args[i])
		case a == "--cached":
			o.cached = true
		case a == "--count":
			o.count = true
		case a == "--line-number":
			o.lineNumbers = true
		case a == "--files-with-matches" || a == "--name-only":
			o.namesOnly = true
		case a == "--ignore-case":
			o.ignoreCase = true
		case a == "--word-regexp":
			o.word = true
		case a == "--invert-match":
			o.invert = true
		case a == "--extended-regexp":
			o.dialect = utils.ExtendedRegex
		case a == "--fixed-strings":
			o.fixed = true
		case a == "--basic-regexp":
			o.dialect, o.fixed = utils.BasicRegex, false
		case a == "--quiet":
			o.quiet = true
		case strings.HasPrefix(a, "--"):
			return o, &exitError{msg: "git: 'grep " + a + "' is not supported here\n", code: 1}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for _, c := range a[1:] {
				switch c {
				case 'n':
					o.lineNumbers = true
				case 'c':
					o.count = true
				case 'l':
					o.namesOnly = true
				case 'i':
					o.ignoreCase = true
				case 'w':
					o.word = true
				case 'v':
					o.invert = true
				case 'E':
					o.dialect = utils.ExtendedRegex
				case 'F':
					o.fixed = true
				case 'G':
					o.dialect, o.fixed = utils.BasicRegex, false
				case 'h':
					o.noName = true
				case 'H':
					o.noName = false
				case 'q':
					o.quiet = true
				case 'I', 'r':
				default:
					return o, &exitError{msg: "git: 'grep -" + string(c) + "' is not supported here\n", code: 1}
				}
			}
		case len(o.patterns) == 0:
			o.patterns = append(o.patterns, a)
		default:
			o.paths = append(o.paths, a)
		}
	}
	if len(o.patterns) == 0 {
		return o, fatalf("no pattern given")
	}
	return o, nil
}

// compile turns the patterns into one regexp (any may match).
func (o grepOptions) compile() (*regexp.Regexp, error) {
	var alts []string
	for _, p := range o.patterns {
		var re string
		if o.fixed {
			re = regexp.QuoteMeta(p)
		} else {
			var err error
			if re, err = utils.TranslateRegex(p, utils.RegexOptions{Dialect: o.dialect}); err != nil {
				return nil, fatalf("command line, '%s': %s", p, errText(err))
			}
		}
		alts = append(alts, "(?:"+re+")")
	}
	re := strings.Join(alts, "|")
	if o.word {
		re = `(?:^|[^\pL\pN_])(?:` + re + `)(?:[^\pL\pN_]|$)`
	}
	if o.ignoreCase {
		re = "(?i)" + re
	}
	rx, err := regexp.Compile(re)
	if err != nil {
		return nil, fatalf("command line, '%s': %s", strings.Join(o.patterns, "', '"), errText(err))
	}
	return rx, nil
}

// grepFile prints one file's matches and reports whether it had any.
func (r *repo) grepFile(p string, data []byte, re *regexp.Regexp, o grepOptions) bool {
	name := r.rel(p)
	binary := isBinary(data)
	n := 0
	var out bytes.Buffer
	for i, ln := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if re.Match(ln) == o.invert {
			continue
		}
		n++
		if o.count || o.namesOnly || o.quiet || binary {
			continue
		}
		if !o.noName {
			out.WriteString(name + ":")
		}
		if o.lineNumbers {
			fmt.Fprintf(&out, "%d:", i+1)
		}
		out.Write(ln)
		out.WriteByte('\n')
	}
	if n == 0 || o.quiet {
		return n > 0
	}
	switch {
	case o.namesOnly:
		fmt.Fprintln(r.g.out, name)
	case o.count:
		if o.noName {
			fmt.Fprintln(r.g.out, n)
		} else {
			fmt.Fprintf(r.g.out, "%s:%d\n", name, n)
		}
	case binary:
		fmt.Fprintf(r.g.out, "Binary file %s matches\n", name)
	default:
		r.g.out.Write(out.Bytes())
	}
	return true
}
