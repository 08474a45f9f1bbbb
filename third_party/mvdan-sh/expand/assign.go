// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// AssignValue expands the value of an assignment (x=word, declare x=word,
// a[i]=word, a=([k]=word)) to a single string: like [Literal], but with
// quote removal of unquoted backslashes (x=a\ b is "a b") and tilde
// expansion at the start of the word and after each unquoted colon
// (PATH=~/bin:~/go/bin), in the word and in the words of its
// ${x-word}-style operators (patch 27).
func AssignValue(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	old := cfg.assign
	cfg.assign = true
	defer func() { cfg.assign = old }()
	field, err := cfg.wordField(word.Parts, quoteNone)
	if err != nil {
		return "", err
	}
	if err := cfg.allocParts(field); err != nil {
		return "", err
	}
	return cfg.fieldJoin(field), nil
}

// assignTildes splits the unquoted literal s of an assignment's value into
// parts, expanding each tilde prefix at its start (when first is set) and
// after each unescaped colon: ~ and ~NAME up to a slash, a colon or the
// end of s (when more parts follow s, a prefix reaching its end is not
// one: ~"x" stays). Expanded text is a quoted part; the rest is unquoted,
// backslashes kept.
func (cfg *Config) assignTildes(parts []fieldPart, s string, first, more bool) []fieldPart {
	if !strings.Contains(s, "~") {
		return append(parts, fieldPart{val: s})
	}
	start := 0        // of the unquoted text not yet added
	atPrefix := first // s[j] may begin a tilde prefix
	for j := 0; j < len(s); j++ {
		c := s[j]
		if c == '~' && atPrefix {
			end := j + 1
			for end < len(s) && s[end] != '/' && s[end] != ':' && s[end] != '\\' {
				end++
			}
			if (end < len(s) && s[end] == '\\') || (end == len(s) && more) {
				atPrefix = false
				continue
			}
			if prefix, rest := cfg.expandUser(s[j:end], false); prefix != "" || rest == "" {
				if j > start {
					parts = append(parts, fieldPart{val: s[start:j]})
				}
				parts = append(parts, fieldPart{val: prefix, quote: quoteSingle})
				start = end
				j = end - 1
			}
			atPrefix = false
			continue
		}
		atPrefix = c == ':'
		if c == '\\' {
			j++ // an escaped character separates nothing
		}
	}
	if start < len(s) {
		parts = append(parts, fieldPart{val: s[start:]})
	}
	return parts
}

// assignLikeName returns the length of "NAME=" at the start of s, or 0:
// bash expands tildes after = and : in an argument that looks like an
// assignment (echo PATH=~/bin).
func assignLikeName(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '=' && i > 0:
			return i + 1
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return 0
		}
	}
	return 0
}

// unescapedParts appends the unquoted text s to parts with its
// backslashes removed: each escaped character becomes a quoted part of its
// own, so that it is not special to a pattern or a split; a trailing
// backslash stays, and a backslash-newline is dropped.
func unescapedParts(parts []fieldPart, s string) []fieldPart {
	for {
		i := strings.IndexByte(s, '\\')
		if i < 0 || i == len(s)-1 {
			break
		}
		if i > 0 {
			parts = append(parts, fieldPart{val: s[:i]})
		}
		_, size := utf8.DecodeRuneInString(s[i+1:])
		if s[i+1] != '\n' {
			parts = append(parts, fieldPart{quote: quoteSingle, val: s[i+1 : i+1+size]})
		}
		s = s[i+1+size:]
	}
	if s != "" {
		parts = append(parts, fieldPart{val: s})
	}
	return parts
}
