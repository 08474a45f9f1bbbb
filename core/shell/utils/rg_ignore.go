package utils

import (
	"io"
	"regexp"
	"strings"
)

// ripgrep's filters: gitignore-style globs (.gitignore, .ignore, .rgignore,
// .git/info/exclude, and -g overrides) compiled to regular expressions over
// slash-separated paths relative to the directory the rules belong to.

// ignoreRule is one line of an ignore file or one -g glob.
type ignoreRule struct {
	re      *regexp.Regexp
	negate  bool // "!pat": re-include (ignore files) or exclude (-g)
	dirOnly bool // "pat/": matches directories only
}

// ignoreVerdict is what a set of rules says about a path.
type ignoreVerdict int

const (
	ignoreNone      ignoreVerdict = iota // no rule matched
	ignoreIgnored                        // the last matching rule ignores it
	ignoreWhitelist                      // the last matching rule re-includes it
)

// compileIgnoreGlob translates one gitignore pattern (negation and the
// directory slash already removed) to an anchored regexp. A pattern with a
// slash before its end is relative to its base; one without matches at any
// depth. fold makes it case-insensitive (--iglob).
func compileIgnoreGlob(pat string, fold bool) (*regexp.Regexp, error) {
	anchored := strings.Contains(pat, "/")
	pat = strings.TrimPrefix(pat, "/")
	var b strings.Builder
	if fold {
		b.WriteString("(?i)")
	}
	b.WriteString("^")
	if !anchored {
		b.WriteString("(?:.*/)?")
	}
	writeGlob(&b, pat)
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// writeGlob writes pat's translation into b: * and ? within a name, **
// across directories, [classes], \ escapes and {a,b} alternatives.
func writeGlob(b *strings.Builder, pat string) {
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch c {
		case '*':
			if i+1 < len(pat) && pat[i+1] == '*' {
				start := i == 0 || pat[i-1] == '/'
				end := i+2 == len(pat) || pat[i+2] == '/'
				if start && end {
					switch {
					case i+2 == len(pat):
						b.WriteString(".*") // "x/**": everything inside
					default:
						b.WriteString("(?:.*/)?") // "**/" or "/**/": any depth
						i++                       // the slash after **
					}
					i++
					continue
				}
			}
			b.WriteString("[^/]*")
		case '?':
			b.WriteString("[^/]")
		case '[':
			end := globClassEnd(pat, i)
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := pat[i+1 : end]
			b.WriteByte('[')
			if strings.HasPrefix(class, "!") || strings.HasPrefix(class, "^") {
				b.WriteByte('^')
				class = class[1:]
			}
			b.WriteString(strings.NewReplacer(`\`, `\\`, "[", `\[`).Replace(class))
			b.WriteByte(']')
			i = end
		case '\\':
			if i+1 < len(pat) {
				i++
				b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
			}
		case '{':
			// {a,b}: alternatives, as ripgrep's globs have them (not nested).
			end := strings.IndexByte(pat[i:], '}')
			if end < 0 {
				b.WriteString(`\{`)
				continue
			}
			b.WriteString("(?:")
			for k, alt := range strings.Split(pat[i+1:i+end], ",") {
				if k > 0 {
					b.WriteByte('|')
				}
				writeGlob(b, alt)
			}
			b.WriteByte(')')
			i += end
		default:
			b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
		}
	}
}

// globClassUnclosed reports a '[' that no ']' closes.
func globClassUnclosed(pat string) bool {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '[':
			end := globClassEnd(pat, i)
			if end < 0 {
				return true
			}
			i = end
		}
	}
	return false
}

// globClassEnd finds the ']' closing the class that opens at pat[i], or -1.
func globClassEnd(pat string, i int) int {
	j := i + 1
	if j < len(pat) && (pat[j] == '!' || pat[j] == '^') {
		j++
	}
	if j < len(pat) && pat[j] == ']' {
		j++
	}
	for ; j < len(pat); j++ {
		if pat[j] == ']' {
			return j
		}
	}
	return -1
}

// parseIgnoreRule reads one line of an ignore file (or one -g glob); ok is
// false for blank lines and comments.
func parseIgnoreRule(line string, fold bool) (ignoreRule, bool) {
	line = strings.TrimSuffix(line, "\r")
	if strings.HasPrefix(line, "#") {
		return ignoreRule{}, false
	}
	// Trailing spaces do not count unless escaped.
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
		line = line[:len(line)-1]
	}
	if line == "" {
		return ignoreRule{}, false
	}
	var r ignoreRule
	if strings.HasPrefix(line, "!") {
		r.negate, line = true, line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") && len(line) > 1 {
		r.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if line == "" {
		return ignoreRule{}, false
	}
	re, err := compileIgnoreGlob(line, fold)
	if err != nil {
		return ignoreRule{}, false
	}
	r.re = re
	return r, true
}

// ignoreSet is the rules of one ignore file, relative to its directory.
type ignoreSet struct {
	base  string // absolute directory the rules are relative to
	rules []ignoreRule
}

// readIgnoreSet reads an ignore file; nil when it cannot be read.
func readIgnoreSet(t *tool, file, base string) *ignoreSet {
	f, err := t.env.FS.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil
	}
	set := &ignoreSet{base: base}
	for _, line := range strings.Split(string(data), "\n") {
		if r, ok := parseIgnoreRule(line, false); ok {
			set.rules = append(set.rules, r)
		}
	}
	if len(set.rules) == 0 {
		return nil
	}
	return set
}

// verdict applies the rules to an absolute path: the last match decides.
func (s *ignoreSet) verdict(abs string, isDir bool) ignoreVerdict {
	var rel string
	switch {
	case s.base == "/":
		rel = strings.TrimPrefix(abs, "/")
	case strings.HasPrefix(abs, s.base+"/"):
		rel = abs[len(s.base)+1:]
	default:
		return ignoreNone
	}
	for i := len(s.rules) - 1; i >= 0; i-- {
		r := s.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		if r.re.MatchString(rel) {
			if r.negate {
				return ignoreWhitelist
			}
			return ignoreIgnored
		}
	}
	return ignoreNone
}
