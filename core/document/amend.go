package document

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"gatehouse/core/gate"
)

// Amending a document: the text edit behind a host's "allow, and add a
// rule" (core's ProposeAmendment). The exception goes into the document's
// text at the rule's position, so comments and layout stay.

// ErrNoAmendment says no document change can be proposed for an ask: it
// was put by a policy program, the workspace has no document, the command
// is a bare interpreter or wrapper, or the rule is written in a way this
// editor will not touch. The wrapped message says which.
var ErrNoAmendment = errors.New("no amendment")

// ErrChanged says the document on disk is no longer the one an
// amendment was computed from; propose again.
var ErrChanged = errors.New("the workspace document changed since the amendment was proposed")

// RulePlace is where an ask rule is written: its profile, its mount ("" for
// a profile-level rule), its index in that level's ask list, and the
// source the running workspace knows it by (FILE:LINE:COL).
type RulePlace struct {
	Profile string
	Mount   string
	Index   int
	Source  string
}

// AddException returns the document src (read from file) with exception x
// added to the ask rule at a, after checking that the rule written there is
// still want. The text changes only at that rule (comments and layout
// stay), and the result must load. Errors wrap ErrChanged when the document
// no longer holds that rule, ErrNoAmendment when the rule is written in a
// shape that is not edited in place.
func AddException(file string, src []byte, a RulePlace, want gate.Rule, x gate.Exception) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, err
	}
	rules, err := askListNode(&root, a)
	if err != nil {
		return nil, err
	}
	if a.Index >= len(rules.Content) {
		return nil, fmt.Errorf("%w: %s has no rule %d any more", ErrChanged, a.Source, a.Index)
	}
	node := rules.Content[a.Index]
	if node.Kind == yaml.AliasNode || node.Anchor != "" {
		return nil, fmt.Errorf("%w: rule %s is shared through a YAML anchor; amending it would change every copy", ErrNoAmendment, a.Source)
	}
	p := &documentParser{file: file}
	written, err := p.rule(node, "rule", a.Mount, true)
	if err != nil {
		return nil, err
	}
	if written.Reason != want.Reason || !slices.Equal(written.Commands, want.Commands) || !slices.Equal(written.Paths, want.Paths) {
		return nil, fmt.Errorf("%w: the rule at %s is not the one that asked", ErrChanged, p.source(node))
	}
	item, err := exceptionNode(x)
	if err != nil {
		return nil, err
	}
	doc := newDocumentText(string(src))
	edit, err := doc.appendToRuleList(node, "except", item)
	if errors.Is(err, errNotEditable) {
		return nil, fmt.Errorf("%w: rule %s is written in a shape this editor will not rewrite (%v); add `except: [%s]` by hand", ErrNoAmendment, a.Source, err, item)
	}
	if err != nil {
		return nil, err
	}
	out := []byte(edit.apply(doc.src))
	if _, err := Parse(file, out); err != nil {
		return nil, fmt.Errorf("the amended document does not load (%v); nothing was written", err)
	}
	return out, nil
}

// askListNode walks to profiles.P.commands.ask, or to
// profiles.P.mounts.M.commands.ask for a mount-level rule.
func askListNode(root *yaml.Node, a RulePlace) (*yaml.Node, error) {
	keys := []string{"profiles", a.Profile}
	if a.Mount != "" {
		keys = append(keys, "mounts", a.Mount)
	}
	keys = append(keys, "commands", "ask")
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	for _, k := range keys {
		if n.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%w: no %s in the document", ErrChanged, strings.Join(keys, "."))
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
			}
		}
		if next == nil {
			return nil, fmt.Errorf("%w: no %s in the document", ErrChanged, strings.Join(keys, "."))
		}
		if next.Kind == yaml.AliasNode || next.Anchor != "" {
			return nil, fmt.Errorf("%w: %s is shared through a YAML anchor; amending it would change every copy", ErrNoAmendment, k)
		}
		n = next
	}
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%w: %s is not a list", ErrChanged, strings.Join(keys, "."))
	}
	return n, nil
}

// exceptionNode renders an exception as the loader reads it: a plain
// string when it holds for any directory, else {command, cwd}, or {argv,
// cwd} when a word has blanks in it.
func exceptionNode(x gate.Exception) (string, error) {
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s} }
	simple := true
	for _, w := range x.Argv {
		if w == "" || strings.ContainsAny(w, " \t\n") {
			simple = false
		}
	}
	if simple && x.Cwd == "" && x.Paths == nil {
		return flowValue(str(strings.Join(x.Argv, " ")))
	}
	m := &yaml.Node{Kind: yaml.MappingNode}
	if simple {
		m.Content = append(m.Content, str("command"), str(strings.Join(x.Argv, " ")))
	} else {
		argv := &yaml.Node{Kind: yaml.SequenceNode}
		for _, w := range x.Argv {
			argv.Content = append(argv.Content, str(w))
		}
		m.Content = append(m.Content, str("argv"), argv)
	}
	if x.Cwd != "" {
		m.Content = append(m.Content, str("cwd"), str(x.Cwd))
	}
	if x.Paths != nil {
		paths := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, p := range x.Paths {
			paths.Content = append(paths.Content, str(p))
		}
		m.Content = append(m.Content, str("paths"), paths)
	}
	return flowValue(m)
}
