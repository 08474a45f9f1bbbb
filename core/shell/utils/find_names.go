package utils

import (
	"io/fs"
	"regexp"
	"strings"
)

// find's tests of names and paths: -name, -path, -regex and their
// variants, and -regextype.

// nameTest parses -name, -iname, -lname and -ilname PATTERN.
func (p *findParser) nameTest(tok string) findNode {
	pat, ok := p.arg(tok)
	if !ok {
		return p.fail("")
	}
	flags := fnmatchFlags{casefold: tok == "-iname" || tok == "-ilname"}
	if tok == "-lname" || tok == "-ilname" {
		return findPred(func(r *findRun, f *findFile) bool {
			info := f.lstat(r)
			if info == nil || info.Mode()&fs.ModeSymlink == 0 {
				return false
			}
			target, err := r.t.env.FS.Readlink(f.path())
			return err == nil && fnmatch(pat, target, flags)
		})
	}
	return findPred(func(r *findRun, f *findFile) bool { return fnmatch(pat, f.base(), flags) })
}

// pathTest parses -path, -wholename, -ipath and -iwholename PATTERN.
func (p *findParser) pathTest(tok string) findNode {
	pat, ok := p.arg(tok)
	if !ok {
		return p.fail("")
	}
	flags := fnmatchFlags{casefold: strings.HasPrefix(tok, "-i")}
	return findPred(func(r *findRun, f *findFile) bool { return fnmatch(pat, f.shownPath(), flags) })
}

// regexTest parses -regex and -iregex PATTERN, in the dialect -regextype
// chose.
func (p *findParser) regexTest(tok string) findNode {
	pat, ok := p.arg(tok)
	if !ok {
		return p.fail("")
	}
	src, err := TranslateRegex(pat, RegexOptions{Dialect: p.run.regexDialect})
	if err != nil {
		return p.fail(err.Error())
	}
	if tok == "-iregex" {
		src = "(?i)" + src
	}
	re, err := regexp.Compile(`^(?:` + src + `)$`)
	if err != nil {
		return p.fail(compileError(err).Error())
	}
	return findPred(func(r *findRun, f *findFile) bool { return re.MatchString(f.shownPath()) })
}

// regexType parses -regextype TYPE, which applies to the -regex tests
// after it.
func (p *findParser) regexType(tok string) findNode {
	v, ok := p.arg(tok)
	if !ok {
		return p.fail("")
	}
	switch v {
	case "emacs", "findutils-default":
		p.run.regexDialect = EmacsRegex
	case "posix-basic", "grep", "ed", "sed", "posix-minimal-basic":
		p.run.regexDialect = BasicRegex
	case "posix-extended", "egrep", "posix-egrep", "awk", "posix-awk", "gnu-awk":
		p.run.regexDialect = ExtendedRegex
	default:
		return p.fail("Unknown regular expression type " + quoteAlways(v) + "; valid types are 'findutils-default', 'ed', 'emacs', 'gnu-awk', 'grep', 'posix-awk', 'awk', 'posix-basic', 'posix-egrep', 'egrep', 'posix-extended', 'posix-minimal-basic', 'sed'.")
	}
	return findTrue()
}
