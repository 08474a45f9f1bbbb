// Copyright (c) 2026, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package internal

import (
	"errors"
	"regexp"

	"mvdan.cc/sh/v3/pattern"
)

// ExtendedPatternMatcher returns a [regexp.Regexp.MatchString]-like function
// to support !(pattern-list) extended patterns where possible.
// It can be used instead of [pattern.Regexp] for narrow use cases.
func ExtendedPatternMatcher(pat string, mode pattern.Mode) (func(string) bool, error) {
	match, err := StoppablePatternMatcher(pat, mode, nil)
	if err != nil {
		return nil, err
	}
	return func(name string) bool {
		matched, _ := match(name)
		return matched
	}, nil
}

// StoppablePatternMatcher is [ExtendedPatternMatcher] whose matches of
// large values ask stop now and then (see [Matcher]); a match that stopped
// reports so, and its answer is arbitrary.
func StoppablePatternMatcher(pat string, mode pattern.Mode, stop func() bool) (func(string) (matched, stopped bool), error) {
	if mode&pattern.ExtendedOperators != 0 && mode&pattern.EntireString == 0 {
		// In the future we could try to support !(pattern) without matching
		// the entire input, ensuring we add enough test cases.
		panic("ExtendedOperators is only supported with EntireString")
	}

	// Extended pattern matching operators are always on outside of pathname expansion.
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		// Handle !(pattern-list) negation: when Regexp returns NegExtglobError,
		// match the inner pattern and negate the result.
		if _, ok := errors.AsType[*pattern.NegExtGlobError](err); !ok {
			return nil, err
		}
		return negationMatcher(pat, mode, stop)
	}
	// A pattern can translate to an expression too large or too deeply
	// nested for the regexp engine; that is an error, never a panic.
	rx, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	m := &Matcher{Rx: rx, Stop: stop}
	return m.Match, nil
}
