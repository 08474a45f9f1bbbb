package utils

import (
	"strconv"
	"strings"

	"gatehouse/internal/lazy"
)

// find's tests of types, sizes, modes, owners and links.

// typeTest parses -type and -xtype LETTERS (b c d p f l s D, comma
// separated).
func (p *findParser) typeTest(tok string) findNode {
	v, ok := p.arg(tok)
	if !ok {
		return p.fail("")
	}
	var want [256]bool // indexed by type letter: no map lookup per file
	for _, part := range strings.Split(v, ",") {
		if len(part) != 1 || strings.IndexByte("bcdpflsD", part[0]) < 0 {
			if len(part) > 1 {
				return p.fail("Must separate multiple arguments to " + tok + " using: ','")
			}
			return p.fail("Unknown argument to " + tok + ": " + part)
		}
		want[part[0]] = true
	}
	xtype := tok == "-xtype"
	return findPred(func(r *findRun, f *findFile) bool {
		typ, ok := f.fileType(r, xtype != (r.follow == "-L"))
		return ok && want[fileTypeLetter(typ)]
	})
}

// findEmpty is -empty: an empty regular file or directory.
func findEmpty() findNode {
	return findPred(func(r *findRun, f *findFile) bool {
		info := f.stat(r)
		if r.follow != "-L" {
			info = f.lstat(r)
		}
		switch {
		case info == nil:
			return false
		case info.IsDir():
			entries, err := r.t.env.FS.ReadDir(f.path())
			return err == nil && len(entries) == 0
		case info.Mode().IsRegular():
			return info.Size() == 0
		}
		return false
	})
}

// sizeUnits are -size's suffixes, in bytes.
var sizeUnits = lazy.Value[map[byte]int64]{New: func() map[byte]int64 {
	return map[byte]int64{'b': 512, 'c': 1, 'w': 2, 'k': 1024, 'M': 1 << 20, 'G': 1 << 30}
}}

// sizeTest parses -size [+-]N[bcwkMG], rounding sizes up to the unit.
func (p *findParser) sizeTest(tok string) findNode {
	v, ok := p.arg(tok)
	if !ok {
		return p.fail("")
	}
	unit := int64(512)
	num := v
	if num != "" {
		if u, ok := sizeUnits.Get()[num[len(num)-1]]; ok {
			unit, num = u, num[:len(num)-1]
		}
	}
	a, ok := parseNumericArg(num)
	if !ok {
		return p.fail("invalid -size type " + quoteAlways(v))
	}
	return findPred(func(r *findRun, f *findFile) bool {
		info := f.info(r)
		if info == nil {
			return false
		}
		return a.matches((info.Size() + unit - 1) / unit)
	})
}

// permTest parses -perm MODE, -MODE (all bits) and /MODE (any bit).
func (p *findParser) permTest(tok string) findNode {
	v, ok := p.arg(tok)
	if !ok {
		return p.fail("")
	}
	kind := byte(0)
	spec := v
	if spec != "" && (spec[0] == '-' || spec[0] == '/' || spec[0] == '+') {
		kind, spec = spec[0], spec[1:]
	}
	want, ok := applyModeSpec(spec, 0, false, 0)
	if !ok {
		return p.fail("invalid mode " + quoteAlways(v))
	}
	return findPred(func(r *findRun, f *findFile) bool {
		info := f.info(r)
		if info == nil {
			return false
		}
		have := unixBits(info.Mode())
		switch kind {
		case '-':
			return have&want == want
		case '/', '+':
			return want == 0 || have&want != 0
		}
		return have == want
	})
}

// ownerTest parses -user, -group, -uid and -gid: every entry of a
// workspace belongs to root.
func (p *findParser) ownerTest(tok string) findNode {
	v, ok := p.arg(tok)
	if !ok {
		return p.fail("")
	}
	isRoot := v == "root" || v == "0"
	if (tok == "-user" || tok == "-group") && !isRoot {
		if _, err := strconv.Atoi(v); err != nil {
			what := "user"
			if tok == "-group" {
				what = "group"
			}
			return p.fail(quoteAlways(v) + " is not the name of a known " + what)
		}
	}
	if tok == "-uid" || tok == "-gid" {
		a, ok := parseNumericArg(v)
		if !ok {
			return p.fail("invalid argument " + quoteAlways(v) + " to " + quoteAlways(tok))
		}
		isRoot = a.matches(0)
	}
	return findPred(func(*findRun, *findFile) bool { return isRoot })
}

// linksTest parses -links [+-]N.
func (p *findParser) linksTest(tok string) findNode {
	v, ok := p.arg(tok)
	if !ok {
		return p.fail("")
	}
	a, ok := parseNumericArg(v)
	if !ok {
		return p.fail("invalid argument " + quoteAlways(v) + " to " + quoteAlways(tok))
	}
	return findPred(func(r *findRun, f *findFile) bool { return a.matches(f.links(r)) })
}

// findAccess is -readable, -writable and -executable, by the mode's bits.
func findAccess(tok string) findNode {
	bits := map[string]uint32{"-readable": 0o444, "-writable": 0o222, "-executable": 0o111}[tok]
	return findPred(func(r *findRun, f *findFile) bool {
		info := f.info(r)
		return info != nil && unixBits(info.Mode())&bits != 0
	})
}
