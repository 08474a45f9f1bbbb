package document

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"gatehouse/internal/nearest"
)

// Error is one load error of a workspace document (G-1.1). It names
// the file, the position of the offending node and the key path leading to
// it, so a user can jump straight to the mistake:
//
//	workspace.yaml:12:7: profiles.responder.commands: unknown key "alow"
//
// Line and Col are 1-based; 0 means the position is unknown (some YAML syntax
// errors carry only a line).
type Error struct {
	File      string
	Line, Col int
	Key       string // dotted key path, "" for the document as a whole
	Msg       string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.File == "" {
		b.WriteString("workspace document")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// documentParser walks a yaml.v3 node tree by hand rather than unmarshalling
// into structs, because every rule must remember the position it was written
// at (G-1.3) and every error must point at the node that caused it.
type documentParser struct {
	file string // the document's path as the caller spelled it
	dir  string // absolute directory that relative host paths resolve against
	// mountReadOnly holds every prefix a profile may narrow, with its mode.
	mountReadOnly map[string]bool
}

// mappingEntry is one key/value pair of a mapping, aliases already followed.
type mappingEntry struct {
	Key   *yaml.Node
	Name  string
	Value *yaml.Node
	Path  string // key path of the value: parent path + "." + Name
}

func (p *documentParser) fail(n *yaml.Node, key, format string, args ...any) error {
	e := &Error{File: p.file, Key: key, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
	}
	return e
}

// source renders the FILE:LINE:COL a rule cites in explanations and refusal
// records (G-1.3).
func (p *documentParser) source(n *yaml.Node) string {
	return fmt.Sprintf("%s:%d:%d", p.file, n.Line, n.Column)
}

// deref follows YAML aliases so anchors can share a rule or a list; the
// position kept is the anchor's, which is where the text was written.
func (p *documentParser) deref(n *yaml.Node, key string) (*yaml.Node, error) {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode; hops++ {
		if n.Alias == nil || hops > 8 {
			return nil, p.fail(n, key, "alias *%s leads nowhere", n.Value)
		}
		n = n.Alias
	}
	return n, nil
}

func isYAMLNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// describe names what a node is, for "want X, got Y" messages.
func describeYAMLNode(n *yaml.Node) string {
	switch {
	case isYAMLNull(n):
		return "nothing (null)"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.ScalarNode:
		text := n.Value
		if utf8.RuneCountInString(text) > 40 {
			text = string([]rune(text)[:40]) + "…"
		}
		return fmt.Sprintf("%q", text)
	}
	return "an unexpected YAML node"
}

func documentChildKey(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func documentIndexKey(parent string, i int) string {
	return fmt.Sprintf("%s[%d]", parent, i)
}

// entries returns the pairs of a mapping in document order. known lists the
// keys allowed (nil = any key). Duplicate keys are reported here because
// decoding into a yaml.Node does not check them.
func (p *documentParser) entries(n *yaml.Node, key string, known ...string) ([]mappingEntry, error) {
	n, err := p.deref(n, key)
	if err != nil {
		return nil, err
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, p.fail(n, key, "want a mapping, got %s", describeYAMLNode(n))
	}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	out := make([]mappingEntry, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, err := p.deref(n.Content[i], key)
		if err != nil {
			return nil, err
		}
		if k.Kind != yaml.ScalarNode {
			return nil, p.fail(k, key, "keys must be plain strings, got %s", describeYAMLNode(k))
		}
		if k.ShortTag() == "!!merge" {
			return nil, p.fail(k, key, "merge keys (<<) are not supported; use an alias (*name) for the whole value")
		}
		if first, dup := seen[k.Value]; dup {
			return nil, p.fail(k, key, "duplicate key %q (first at line %d)", k.Value, first.Line)
		}
		seen[k.Value] = k
		if known != nil && !slices.Contains(known, k.Value) {
			return nil, p.fail(k, key, "%s", unknownKeyMessage(k.Value, known))
		}
		path := documentChildKey(key, k.Value)
		v, err := p.deref(n.Content[i+1], path)
		if err != nil {
			return nil, err
		}
		out = append(out, mappingEntry{Key: k, Name: k.Value, Value: v, Path: path})
	}
	return out, nil
}

// unknownKeyMessage suggests the nearest known key, since most unknown keys
// are typos ("alow") and the fix is then obvious.
func unknownKeyMessage(name string, known []string) string {
	best, bestDistance := "", 3
	for _, k := range known {
		if d := nearest.Distance(name, k); d < bestDistance {
			best, bestDistance = k, d
		}
	}
	if best != "" {
		return fmt.Sprintf("unknown key %q (did you mean %q?)", name, best)
	}
	sorted := append([]string(nil), known...)
	sort.Strings(sorted)
	return fmt.Sprintf("unknown key %q (known keys: %s)", name, strings.Join(sorted, ", "))
}

// text reads a scalar as the text it was written as. Any scalar counts: a
// command named `true` or a port number in env must not be refused because
// YAML resolves it to a bool or an int.
func (p *documentParser) text(n *yaml.Node, key string) (string, error) {
	if isYAMLNull(n) || n.Kind != yaml.ScalarNode {
		return "", p.fail(n, key, "want a string, got %s", describeYAMLNode(n))
	}
	return n.Value, nil
}

// optionalText is text where null reads as "" (an empty reason, an empty
// file, an empty variable).
func (p *documentParser) optionalText(n *yaml.Node, key string) (string, error) {
	if isYAMLNull(n) {
		return "", nil
	}
	return p.text(n, key)
}

// list returns the items of a sequence, aliases followed. Null is refused on
// purpose: `allow:` left empty would otherwise silently mean "everything".
func (p *documentParser) list(n *yaml.Node, key string) ([]*yaml.Node, error) {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil, p.fail(n, key, "want a list, got %s", describeYAMLNode(n))
	}
	items := make([]*yaml.Node, len(n.Content))
	for i, item := range n.Content {
		resolved, err := p.deref(item, documentIndexKey(key, i))
		if err != nil {
			return nil, err
		}
		items[i] = resolved
	}
	return items, nil
}
