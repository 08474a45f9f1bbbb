package interp

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// tracer prints expressions like a shell would do if its
// options '-o' is set to either 'xtrace' or its shorthand, '-x'.
type tracer struct {
	buf       bytes.Buffer
	printer   *syntax.Printer
	output    io.Writer
	needsPlus bool
	plus      string // "+ ", "++ " within an eval, a sourced file or $( )
}

func (r *Runner) tracer() *tracer {
	if !r.opts[optXTrace] {
		return nil
	}

	output := r.stderr
	if r.traceErr != nil {
		output = r.traceErr
	}
	return &tracer{
		printer:   syntax.NewPrinter(),
		output:    output,
		needsPlus: true,
		plus:      strings.Repeat("+", r.traceDepth+1) + " ",
	}
}

// string writes s to tracer.buf if tracer is non-nil,
// prepending "+" if tracer.needsPlus is true.
func (t *tracer) string(s string) {
	if t == nil {
		return
	}

	if t.needsPlus {
		t.buf.WriteString(t.plus)
	}
	t.needsPlus = false
	t.buf.WriteString(s)
}

func (t *tracer) stringf(f string, a ...any) {
	if t == nil {
		return
	}

	t.string(fmt.Sprintf(f, a...))
}

// expr prints x to tracer.buf if tracer is non-nil,
// prepending "+" if tracer.isFirstPrint is true.
func (t *tracer) expr(x syntax.Node) {
	if t == nil {
		return
	}

	if t.needsPlus {
		t.buf.WriteString(t.plus)
	}
	t.needsPlus = false
	if err := t.printer.Print(&t.buf, x); err != nil {
		panic(err)
	}
}

// flush writes the contents of tracer.buf to the tracer.stdout.
func (t *tracer) flush() {
	if t == nil {
		return
	}

	t.output.Write(t.buf.Bytes())
	t.buf.Reset()
}

// newLineFlush is like flush, but with extra new line before tracer.buf gets flushed.
func (t *tracer) newLineFlush() {
	if t == nil {
		return
	}

	t.buf.WriteString("\n")
	t.flush()
	// reset state
	t.needsPlus = true
}

// quoteBash quotes a string so that it can be traced as a single Bash word.
func quoteBash(s string) string {
	qs, err := syntax.Quote(s, syntax.LangBash)
	if err != nil { // should never happen
		panic(err)
	}
	return qs
}

// call prints a command and its words as bash's set -x does: each word
// alone, quoted when it holds a character the shell would read (patch 133).
func (t *tracer) call(cmd string, args ...string) {
	if t == nil {
		return
	}
	words := make([]string, 0, 1+len(args))
	for _, w := range append([]string{cmd}, args...) {
		words = append(words, xtraceQuote(w))
	}
	t.string(strings.Join(words, " "))
}

// xtraceQuote quotes a word as bash's xtrace prints it: two quotes when empty,
// $'…' with control characters, '…' with a character special to the
// shell (a ~ or # only where it would expand or start a comment).
func xtraceQuote(s string) string {
	if s == "" {
		return "''"
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f {
			return quoteBash(s)
		}
	}
	special := false
	for i := 0; i < len(s) && !special; i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>',
			'!', '{', '}', '*', '[', '?', ']', '^', '$', '`':
			special = true
		case '~':
			special = i == 0 || s[i-1] == '=' || s[i-1] == ':'
		case '#':
			special = i == 0
		}
	}
	if !special {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
