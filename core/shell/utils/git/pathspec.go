package git

import (
	"path"
	"strings"
)

// pathspec is one path operand as a worktree path: an exact name, a
// directory prefix, or a glob whose wildcards may cross "/" (git's
// default pathspec magic).
type pathspec struct {
	arg  string // as given
	path string // from the top; "" is the whole tree
	glob bool
}

// pathspecs turns operands into pathspecs; one outside the worktree is
// git's fatal error.
func (r *repo) pathspecs(args []string) ([]pathspec, error) {
	out := make([]pathspec, 0, len(args))
	for _, a := range args {
		p, ok := r.workPath(a)
		if !ok {
			return nil, fatalf("%s: '%s' is outside repository at '%s'", a, a, r.work)
		}
		out = append(out, pathspec{arg: a, path: p, glob: strings.ContainsAny(a, "*?[")})
	}
	return out, nil
}

func (s pathspec) match(name string) bool {
	switch {
	case s.path == "":
		return true
	case name == s.path || strings.HasPrefix(name, s.path+"/"):
		return true
	case s.glob:
		return wildmatch(s.path, name)
	}
	return false
}

func matchAny(specs []pathspec, name string) bool {
	for _, s := range specs {
		if s.match(name) {
			return true
		}
	}
	return false
}

// wildmatch is fnmatch without FNM_PATHNAME: "*" also matches "/"
// (path.Match would stop it there).
func wildmatch(pattern, name string) bool { return globAny(pattern, name) }

// globAny matches pattern against name where "*" matches any bytes. It
// keeps one backtrack point, so its time is bounded by the product of the
// lengths whatever the pattern.
func globAny(pattern, name string) bool {
	pi, ni := 0, 0
	star, resume := -1, 0
	for ni < len(name) {
		if pi < len(pattern) && pattern[pi] == '*' {
			star, resume = pi, ni
			pi++
			continue
		}
		if pi < len(pattern) {
			if n, ok := matchOne(pattern[pi:], name[ni]); ok {
				pi += n
				ni++
				continue
			}
		}
		if star < 0 {
			return false
		}
		resume++
		pi, ni = star+1, resume
	}
	for pi < len(pattern) && pattern[pi] == '*' {
		pi++
	}
	return pi == len(pattern)
}

// matchOne matches one byte against the pattern's first element ("?", a
// "[...]" class or a literal) and says how long that element is.
func matchOne(pattern string, c byte) (int, bool) {
	switch pattern[0] {
	case '?':
		return 1, true
	case '[':
		if end := strings.IndexByte(pattern[1:], ']'); end >= 0 {
			ok, _ := path.Match(pattern[:end+2], string(c))
			return end + 2, ok
		}
	}
	return 1, pattern[0] == c
}
