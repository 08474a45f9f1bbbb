package document

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// This file edits a workspace document as text, guided by the positions of
// its yaml.v3 nodes, so that an amendment changes the lines of one rule and
// nothing else: comments, blank lines, key order and quoting elsewhere stay
// byte for byte as the human wrote them. Re-encoding the whole node tree
// would lose all of that.

// documentText is a document's bytes with line starts, for turning node
// positions (1-based line and column, columns counted in characters) into
// byte offsets.
type documentText struct {
	src        string
	lineStarts []int
}

func newDocumentText(src string) *documentText {
	d := &documentText{src: src, lineStarts: []int{0}}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			d.lineStarts = append(d.lineStarts, i+1)
		}
	}
	return d
}

// offset is the byte offset of a node's first character.
func (d *documentText) offset(n *yaml.Node) int {
	if n.Line < 1 || n.Line > len(d.lineStarts) {
		return len(d.src)
	}
	off := d.lineStarts[n.Line-1]
	for col := 1; col < n.Column && off < len(d.src) && d.src[off] != '\n'; col++ {
		_, size := utf8.DecodeRuneInString(d.src[off:])
		off += size
	}
	return off
}

// line returns line i (1-based) without its newline.
func (d *documentText) line(i int) string {
	start := d.lineStarts[i-1]
	end := len(d.src)
	if i < len(d.lineStarts) {
		end = d.lineStarts[i] - 1
	}
	return d.src[start:end]
}

func (d *documentText) lineCount() int {
	if strings.HasSuffix(d.src, "\n") {
		return len(d.lineStarts) - 1
	}
	return len(d.lineStarts)
}

// blockEnd is the byte offset just past the last line of a block node that
// starts on line first and whose own lines are indented by indent columns:
// following lines belong to it while they are blank or indented deeper
// (continuations, nested blocks, comments inside it). Trailing blank lines
// stay outside, so an insertion lands right under the node's last line.
func (d *documentText) blockEnd(first, indent int) int {
	last := first
	for i := first + 1; i <= d.lineCount(); i++ {
		text := d.line(i)
		trimmed := strings.TrimLeft(text, " ")
		if trimmed == "" {
			continue
		}
		if len(text)-len(trimmed) <= indent {
			break
		}
		last = i
	}
	if last < len(d.lineStarts) {
		return d.lineStarts[last]
	}
	return len(d.src)
}

// errNotEditable is a node whose text this editor will not touch, because
// it cannot find the node's extent safely; the caller says "edit by hand".
var errNotEditable = errors.New("not editable in place")

// flowEnd is the byte offset just past the flow collection ({…} or […])
// that starts at off, skipping quoted strings and comments.
func flowEnd(src string, off int) (int, error) {
	depth := 0
	for i := off; i < len(src); i++ {
		switch c := src[i]; c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, nil
			}
		case '\'', '"':
			end, err := quotedEnd(src, i)
			if err != nil {
				return 0, err
			}
			i = end - 1
		case '#':
			if i > off && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n') {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			}
		}
	}
	return 0, fmt.Errorf("unclosed flow collection: %w", errNotEditable)
}

// quotedEnd is the byte offset just past the quoted scalar at off.
func quotedEnd(src string, off int) (int, error) {
	quote := src[off]
	for i := off + 1; i < len(src); i++ {
		switch {
		case quote == '"' && src[i] == '\\':
			i++
		case src[i] == quote && quote == '\'' && i+1 < len(src) && src[i+1] == '\'':
			i++ // '' is an escaped quote
		case src[i] == quote:
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("unclosed quoted string: %w", errNotEditable)
}

// scalarSpan is the byte range of a one-line scalar as written.
func (d *documentText) scalarSpan(n *yaml.Node) (int, int, error) {
	start := d.offset(n)
	switch {
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		end, err := quotedEnd(d.src, start)
		if err != nil || strings.Contains(d.src[start:end], "\n") {
			return 0, 0, errNotEditable
		}
		return start, end, nil
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0, strings.Contains(n.Value, "\n"):
		return 0, 0, errNotEditable
	}
	end := start + len(n.Value)
	if end > len(d.src) || d.src[start:end] != n.Value {
		return 0, 0, errNotEditable // a plain scalar folded over lines
	}
	return start, end, nil
}

// splice is one edit: replace src[start:end] with text.
type splice struct {
	start, end int
	text       string
}

func (s splice) apply(src string) string { return src[:s.start] + s.text + src[s.end:] }

// appendToRuleList returns the edit that adds item (one YAML flow value,
// already rendered) to the list under key in the rule mapping or bare
// pattern rule, creating the key when the rule has none.
func (d *documentText) appendToRuleList(rule *yaml.Node, key, item string) (splice, error) {
	switch {
	case rule.Kind == yaml.ScalarNode:
		// A bare pattern is shorthand for {command: PATTERN} (G-1.2): spell
		// it out, keeping the pattern exactly as written.
		start, end, err := d.scalarSpan(rule)
		if err != nil {
			return splice{}, err
		}
		text := fmt.Sprintf("{command: %s, %s: [%s]}", d.src[start:end], key, item)
		return splice{start, end, text}, nil
	case rule.Kind != yaml.MappingNode:
		return splice{}, errNotEditable
	}
	var list *yaml.Node
	for i := 0; i+1 < len(rule.Content); i += 2 {
		if rule.Content[i].Value == key {
			list = rule.Content[i+1]
		}
	}
	switch {
	case list != nil && list.Kind != yaml.SequenceNode:
		return splice{}, fmt.Errorf("%s is not a list: %w", key, errNotEditable)
	case list != nil && list.Style&yaml.FlowStyle != 0:
		start := d.offset(list)
		end, err := flowEnd(d.src, start)
		if err != nil {
			return splice{}, err
		}
		sep := ", "
		if len(list.Content) == 0 {
			sep = ""
		}
		return splice{end - 1, end - 1, sep + item}, nil
	case list != nil:
		// A block list: a new "- item" line under its last item.
		dash := list.Column - 1
		last := list.Content[len(list.Content)-1]
		at := d.blockEnd(last.Line, dash)
		return splice{at, at, d.newLine(at, strings.Repeat(" ", dash)+"- "+item)}, nil
	case rule.Style&yaml.FlowStyle != 0:
		start := d.offset(rule)
		end, err := flowEnd(d.src, start)
		if err != nil {
			return splice{}, err
		}
		return splice{end - 1, end - 1, fmt.Sprintf(", %s: [%s]", key, item)}, nil
	}
	// A block mapping: a new "key: [item]" line under its last line, at the
	// column of its keys.
	indent := rule.Column - 1
	lastKey := rule.Content[len(rule.Content)-2]
	at := d.blockEnd(lastKey.Line, indent)
	return splice{at, at, d.newLine(at, strings.Repeat(" ", indent)+key+": ["+item+"]")}, nil
}

// newLine is text for a line inserted at offset at (a line start, or the
// end of a document whose last line has no newline).
func (d *documentText) newLine(at int, text string) string {
	if at == len(d.src) && at > 0 && d.src[at-1] != '\n' {
		return "\n" + text
	}
	return text + "\n"
}

// flowValue renders a node as one line of flow YAML. Scalars are tagged as
// strings so the encoder quotes what would otherwise read as a bool or a
// number.
func flowValue(n *yaml.Node) (string, error) {
	var tag func(*yaml.Node)
	tag = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			n.Tag = "!!str"
		}
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			n.Style = yaml.FlowStyle
		}
		for _, c := range n.Content {
			tag(c)
		}
	}
	tag(n)
	out, err := yaml.Marshal(n)
	if err != nil {
		return "", err
	}
	text := strings.TrimSuffix(string(out), "\n")
	if strings.Contains(text, "\n") {
		return "", fmt.Errorf("value does not fit on one line: %w", errNotEditable)
	}
	return text, nil
}

// UnifiedDiff renders the change from before to after as one unified diff
// hunk with three lines of context (an amendment is one contiguous edit).
func UnifiedDiff(name string, before, after string) string {
	a, b := diffLines(before), diffLines(after)
	prefix := 0
	for prefix < len(a) && prefix < len(b) && a[prefix] == b[prefix] {
		prefix++
	}
	suffix := 0
	for suffix < len(a)-prefix && suffix < len(b)-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	if prefix == len(a) && prefix == len(b) {
		return ""
	}
	const context = 3
	from := max(prefix-context, 0)
	toA := min(len(a)-suffix+context, len(a))
	toB := min(len(b)-suffix+context, len(b))
	var w strings.Builder
	fmt.Fprintf(&w, "--- %s\n+++ %s\n", name, name)
	fmt.Fprintf(&w, "@@ -%s +%s @@\n", hunkRange(from, toA-from), hunkRange(from, toB-from))
	for _, l := range a[from:prefix] {
		w.WriteString(" " + l + "\n")
	}
	for _, l := range a[prefix : len(a)-suffix] {
		w.WriteString("-" + l + "\n")
	}
	for _, l := range b[prefix : len(b)-suffix] {
		w.WriteString("+" + l + "\n")
	}
	for _, l := range a[len(a)-suffix : toA] {
		w.WriteString(" " + l + "\n")
	}
	return w.String()
}

func diffLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// hunkRange is "START,COUNT" with GNU diff's 1-based start (and the line
// before an empty range).
func hunkRange(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if count == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}
