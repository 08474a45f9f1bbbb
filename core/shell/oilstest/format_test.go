package oilstest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// A specCase is one case of a spec file: its code and what each shell is
// expected to print. The format, as the suite's own runner reads it:
//
//	#### NAME                      starts a case
//	code lines                     the script, fed to the shell
//	## stdout: TEXT                one line of expected stdout (newline added)
//	## stdout-json: "JSON"         stdout as a JSON string
//	## STDOUT:                     several lines, up to "## END" or the next "##"
//	## status: N                   expected exit status (default 0)
//	## QUAL SHELLS KEY: ...        the same for some shells only, where QUAL
//	                               is OK, OK-N, BUG, BUG-N or N-I and SHELLS
//	                               is a list like bash/dash
//
// Lines whose first non-blank character is '#' are comments everywhere,
// inside code and expected output too (the suite's runner drops them), and
// blank lines are kept inside code and multi-line values only.
type specCase struct {
	Name string
	Line int // of the "####" line
	Code string
	// Default holds the expectations that name no shell; Shells those for
	// each named shell, with the qualifier they were given under.
	Default expectation
	Shells  map[string]expectation
}

// expectation is what a shell should produce; nil fields are not checked
// (a nil Status means 0).
type expectation struct {
	Qualifier string
	Stdout    *string
	Stderr    *string
	Status    *int
}

// For returns what the named shell must produce: its own expectations
// where it has them, the default for the rest, and status 0 when nothing
// says otherwise. qualifier is the shell's ("" when it has none).
func (c *specCase) For(shell string) (want expectation) {
	want = c.Default
	want.Qualifier = ""
	if own, ok := c.Shells[shell]; ok {
		want.Qualifier = own.Qualifier
		if own.Stdout != nil {
			want.Stdout = own.Stdout
		}
		if own.Stderr != nil {
			want.Stderr = own.Stderr
		}
		if own.Status != nil {
			want.Status = own.Status
		}
	}
	if want.Status == nil {
		zero := 0
		want.Status = &zero
	}
	return want
}

// keyValue matches a metadata line: "## [QUAL SHELLS ]KEY: VALUE".
var keyValue = regexp.MustCompile(`^##\s+(?:(OK(?:-\d)?|BUG(?:-\d)?|N-I)\s+([\w+/]+)\s+)?([\w\-]+):\s*(.*)$`)

var endMarker = regexp.MustCompile(`^##\s+END`)

type tokenKind int

const (
	tokCase tokenKind = iota
	tokKeyValue
	tokMultiline
	tokEnd
	tokPlain
	tokEOF
)

type token struct {
	kind tokenKind
	line int
	text string // the case name, or the plain line with its newline
	// For key-value tokens:
	qual, shells, key, value string
}

// tokenizer reads a spec file line by line in one of two modes: outer
// (blank lines skipped) or raw (blank lines are plain lines).
type tokenizer struct {
	r    *bufio.Reader
	line int
	cur  token
}

func newTokenizer(r io.Reader) (*tokenizer, error) {
	t := &tokenizer{r: bufio.NewReader(r)}
	return t, t.next(false)
}

func (t *tokenizer) next(raw bool) error {
	for {
		s, err := t.r.ReadString('\n')
		if err != nil && err != io.EOF {
			return err
		}
		t.line++
		if s == "" {
			t.cur = token{kind: tokEOF, line: t.line}
			return nil
		}
		tok, keep, cerr := classify(s, raw)
		if cerr != nil {
			return fmt.Errorf("line %d: %v", t.line, cerr)
		}
		if keep {
			tok.line = t.line
			t.cur = tok
			return nil
		}
	}
}

// classify reads one line; keep is false for a line the mode skips.
func classify(s string, raw bool) (tok token, keep bool, err error) {
	if !raw && strings.TrimSpace(s) == "" {
		return token{}, false, nil
	}
	if strings.HasPrefix(s, "####") {
		return token{kind: tokCase, text: strings.TrimSpace(s[4:])}, true, nil
	}
	body := strings.TrimRight(s, "\n")
	if m := keyValue.FindStringSubmatch(body); m != nil {
		tok = token{kind: tokKeyValue, qual: m[1], shells: m[2], key: m[3], value: m[4]}
		switch tok.key {
		case "stdout", "stderr":
			tok.value += "\n"
		case "STDOUT", "STDERR":
			tok.kind = tokMultiline
		}
		return tok, true, nil
	}
	if endMarker.MatchString(body) {
		return token{kind: tokEnd}, true, nil
	}
	if strings.HasPrefix(s, "##") {
		return token{}, false, fmt.Errorf("invalid ## line %q", body)
	}
	if strings.HasPrefix(strings.TrimLeft(s, " \t\r\n\v\f"), "#") {
		return token{}, false, nil
	}
	return token{kind: tokPlain, text: s}, true, nil
}

// parseSpecFile reads every case of a spec file.
func parseSpecFile(r io.Reader) ([]*specCase, error) {
	t, err := newTokenizer(r)
	if err != nil {
		return nil, err
	}
	// File metadata: key-value lines before the first case.
	for t.cur.kind == tokKeyValue {
		if err := t.next(false); err != nil {
			return nil, err
		}
	}
	var cases []*specCase
	for t.cur.kind != tokEOF {
		if t.cur.kind != tokCase {
			return nil, fmt.Errorf("line %d: expected a case (####), got %q", t.cur.line, t.cur.text)
		}
		c := &specCase{Name: t.cur.text, Line: t.cur.line, Shells: map[string]expectation{}}
		if err := t.next(false); err != nil {
			return nil, err
		}
		if err := parseKeyValues(t, c); err != nil {
			return nil, err
		}
		if c.Code == "" {
			if t.cur.kind != tokPlain {
				return nil, fmt.Errorf("line %d: case %q has no code", t.cur.line, c.Name)
			}
			var code strings.Builder
			for t.cur.kind == tokPlain {
				code.WriteString(t.cur.text)
				if err := t.next(true); err != nil {
					return nil, err
				}
			}
			c.Code = code.String()
			if err := parseKeyValues(t, c); err != nil {
				return nil, err
			}
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// parseKeyValues reads the metadata lines at the tokenizer into c.
func parseKeyValues(t *tokenizer, c *specCase) error {
	for {
		tok := t.cur
		switch tok.kind {
		case tokMultiline:
			if tok.value != "" {
				return fmt.Errorf("line %d: %s takes its value on the following lines", tok.line, tok.key)
			}
			var b strings.Builder
			if err := t.next(true); err != nil {
				return err
			}
			for t.cur.kind == tokPlain {
				b.WriteString(t.cur.text)
				if err := t.next(true); err != nil {
					return err
				}
			}
			if err := c.set(tok.qual, tok.shells, strings.ToLower(tok.key), b.String()); err != nil {
				return fmt.Errorf("line %d: %v", tok.line, err)
			}
			if t.cur.kind == tokEnd {
				if err := t.next(false); err != nil {
					return err
				}
			}
		case tokKeyValue:
			if err := c.set(tok.qual, tok.shells, tok.key, tok.value); err != nil {
				return fmt.Errorf("line %d: %v", tok.line, err)
			}
			if err := t.next(false); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// set records one expectation, for the named shells or the default.
func (c *specCase) set(qual, shells, key, value string) error {
	apply := func(e *expectation) error {
		switch key {
		case "stdout", "stderr":
			v := value
			if key == "stdout" {
				e.Stdout = &v
			} else {
				e.Stderr = &v
			}
		case "stdout-json", "stderr-json":
			var v string
			if err := json.Unmarshal([]byte(value), &v); err != nil {
				return fmt.Errorf("%s: %v", key, err)
			}
			if key == "stdout-json" {
				e.Stdout = &v
			} else {
				e.Stderr = &v
			}
		case "status":
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil {
				return fmt.Errorf("status: %v", err)
			}
			e.Status = &n
		case "code":
			c.Code = value
		}
		return nil
	}
	if qual == "" {
		return apply(&c.Default)
	}
	for _, sh := range strings.Split(shells, "/") {
		e := c.Shells[sh]
		e.Qualifier = qual
		if err := apply(&e); err != nil {
			return err
		}
		c.Shells[sh] = e
	}
	return nil
}

// outcome is what one shell printed for a case.
type outcome struct {
	Stdout, Stderr string
	Status         int
}

// check reports whether got meets want, and how it differs when not.
func (want expectation) check(got outcome) (bool, string) {
	var diffs []string
	if want.Stdout != nil && got.Stdout != *want.Stdout {
		diffs = append(diffs, fmt.Sprintf("stdout: want %q, got %q", *want.Stdout, got.Stdout))
	}
	if want.Stderr != nil && got.Stderr != *want.Stderr {
		diffs = append(diffs, fmt.Sprintf("stderr: want %q, got %q", *want.Stderr, got.Stderr))
	}
	if got.Status != *want.Status {
		diffs = append(diffs, fmt.Sprintf("status: want %d, got %d", *want.Status, got.Status))
	}
	return len(diffs) == 0, strings.Join(diffs, "\n")
}
