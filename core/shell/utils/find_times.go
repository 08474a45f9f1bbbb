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
