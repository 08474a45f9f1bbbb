package utils

import (
	"strings"
	"time"
)

// find's tests of times.

// ageTest parses -mtime, -atime, -ctime (days) and -mmin, -amin, -cmin
// (minutes) [+-]N.
func (p *findParser) ageTest(tok string) findNode {
	v, ok := p.arg(tok)
	if !ok {
		return p.fail("")
	}
	a, ok := parseNumericArg(v)
	if !ok {
		return p.fail("invalid argument " + quoteAlways(v) + " to " + quoteAlways(tok))
	}
	unit := 24 * time.Hour
	if strings.HasSuffix(tok, "min") {
		unit = time.Minute
	}
	return findPred(func(r *findRun, f *findFile) bool {
		info := f.info(r)
		return info != nil && a.matches(ageIn(r.now, info.ModTime(), unit))
	})
}

// newerTest parses -newer, -anewer and -cnewer FILE, read when the command
// line is.
func (p *findParser) newerTest(tok string) findNode {
	v, ok := p.arg(tok)
	if !ok {
		return p.fail("")
	}
	ref, err := p.run.t.env.FS.Stat(p.run.t.abs(v))
	if err != nil {
		return p.fail(quoteAlways(v) + ": " + errText(err))
	}
	mt := ref.ModTime()
	return findPred(func(r *findRun, f *findFile) bool {
		info := f.info(r)
		return info != nil && info.ModTime().After(mt)
	})
}

// newerXY reports whether tok is -newerXY: X the file's time and Y the
// reference's, each a (access), B (birth), c (change) or m (modification),
// Y also t (a date string).
func newerXY(tok string) bool {
	if len(tok) != len("-newerXY") || !strings.HasPrefix(tok, "-newer") {
		return false
	}
	x, y := tok[6], tok[7]
	return strings.IndexByte("aBcm", x) >= 0 && strings.IndexByte("aBcmt", y) >= 0 && x != 't'
}

// newerXYTest parses -newerXY REF: a file whose time is after the
// reference's, the reference a file or, for -newerXt, a date as touch -d
// reads it. A workspace keeps one time per file, its modification time,
// which stands for all four.
func (p *findParser) newerXYTest(tok string) findNode {
	if p.pos >= len(p.args) {
		return p.fail("The " + quoteAlways(tok) + " test needs an argument")
	}
	v := p.args[p.pos]
	p.pos++
	var mt time.Time
	if tok[7] == 't' {
		var ok bool
		mt, ok = parseDateString(v, p.run.now, p.run.t.location())
		if !ok {
			return p.fail("I cannot figure out how to interpret " + quoteAlways(v) + " as a date or time")
		}
	} else {
		ref, err := p.run.t.env.FS.Stat(p.run.t.abs(v))
		if err != nil {
			return p.fail(quoteAlways(v) + ": " + errText(err))
		}
		mt = ref.ModTime()
	}
	return findPred(func(r *findRun, f *findFile) bool {
		info := f.info(r)
		return info != nil && info.ModTime().After(mt)
	})
}
