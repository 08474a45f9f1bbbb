package document

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"gatehouse/core/gate"
)

// Path entries of a profile or mount (G-4.1): hide, show and the paths of
// ask/deny rules, validated with the glob syntax the gate compiles, so a
// pattern the gate would refuse fails here with its position.

// pathList reads a list of path patterns.
func (p *documentParser) pathList(f mappingEntry, mountPrefix string) ([]string, error) {
	items, err := p.list(f.Value, f.Path)
	if err != nil || len(items) == 0 {
		return nil, err
	}
	patterns := make([]string, 0, len(items))
	for i, item := range items {
		pattern, err := p.pathPattern(item, documentIndexKey(f.Path, i), mountPrefix)
		if err != nil {
			return nil, err
		}
		patterns = append(patterns, pattern)
	}
	return patterns, nil
}

// pathPattern reads one path glob (G-4.1), kept as written. At profile level
// it must be absolute; at mount level it is relative to the mount ("*.key")
// or absolute inside it.
func (p *documentParser) pathPattern(n *yaml.Node, key, mountPrefix string) (string, error) {
	pattern, err := p.text(n, key)
	if err != nil {
		return "", err
	}
	if pattern == "" {
		return "", p.fail(n, key, "empty path pattern")
	}
	absolute := strings.HasPrefix(pattern, "/")
	if mountPrefix == "" && !absolute {
		return "", p.fail(n, key, "path pattern %q must be absolute, like /%s", pattern, pattern)
	}
	for _, comp := range strings.Split(pattern, "/") {
		switch {
		case comp == "..":
			return "", p.fail(n, key, "path pattern %q must not contain ..", pattern)
		case comp == "**":
		case strings.Contains(comp, "**"):
			return "", p.fail(n, key, "path pattern %q: ** must be a whole path component", pattern)
		default:
			if err := validateDocumentGlob(comp); err != nil {
				return "", p.fail(n, key, "invalid glob %q: %v", pattern, err)
			}
		}
	}
	if mountPrefix != "" && absolute {
		clean := path.Clean(pattern)
		if clean != mountPrefix && !strings.HasPrefix(clean, mountPrefix+"/") {
			return "", p.fail(n, key, "path pattern %q lies outside the mount %s; write it relative to the mount, like *.key", pattern, mountPrefix)
		}
	}
	return pattern, nil
}

// pathSection reads "paths: {hide, show}" at profile or mount level.
func (p *documentParser) pathSection(f mappingEntry, mountPrefix string) ([]gate.PathGroup, []gate.ShowEntry, error) {
	fields, err := p.entries(f.Value, f.Path, "hide", "show")
	if err != nil {
		return nil, nil, err
	}
	var hide []gate.PathGroup
	var show []gate.ShowEntry
	for _, s := range fields {
		switch s.Name {
		case "hide":
			hide, err = p.hideGroups(s, mountPrefix)
		case "show":
			show, err = p.showEntries(s, mountPrefix)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return hide, show, nil
}

// hideGroups reads hide entries: bare patterns, or {reason, paths} groups
// whose reason only hosts ever see (G-4.5).
func (p *documentParser) hideGroups(s mappingEntry, mountPrefix string) ([]gate.PathGroup, error) {
	items, err := p.list(s.Value, s.Path)
	if err != nil {
		return nil, err
	}
	groups := make([]gate.PathGroup, 0, len(items))
	for i, item := range items {
		key := documentIndexKey(s.Path, i)
		group := gate.PathGroup{Source: p.source(item)}
		if item.Kind != yaml.MappingNode {
			pattern, err := p.pathPattern(item, key, mountPrefix)
			if err != nil {
				return nil, err
			}
			group.Paths = []string{pattern}
			groups = append(groups, group)
			continue
		}
		fields, err := p.entries(item, key, "reason", "paths")
		if err != nil {
			return nil, err
		}
		for _, f := range fields {
			switch f.Name {
			case "reason":
				group.Reason, err = p.optionalText(f.Value, f.Path)
			case "paths":
				group.Paths, err = p.pathList(f, mountPrefix)
			}
			if err != nil {
				return nil, err
			}
		}
		if len(group.Paths) == 0 {
			return nil, p.fail(item, key, "hide group hides nothing: give it paths")
		}
		groups = append(groups, group)
	}
	return groups, nil
}

// showEntries reads show as a mapping {PATTERN: ro|rw} or a plain list of
// patterns (mode "": the mount's own).
func (p *documentParser) showEntries(s mappingEntry, mountPrefix string) ([]gate.ShowEntry, error) {
	if s.Value.Kind == yaml.SequenceNode {
		items, err := p.list(s.Value, s.Path)
		if err != nil {
			return nil, err
		}
		show := make([]gate.ShowEntry, 0, len(items))
		for i, item := range items {
			pattern, err := p.pathPattern(item, documentIndexKey(s.Path, i), mountPrefix)
			if err != nil {
				return nil, err
			}
			show = append(show, gate.ShowEntry{Path: pattern, Source: p.source(item)})
		}
		return show, nil
	}
	if s.Value.Kind != yaml.MappingNode {
		return nil, p.fail(s.Value, s.Path, "want a mapping {PATH: ro|rw} or a list of paths, got %s", describeYAMLNode(s.Value))
	}
	entries, err := p.entries(s.Value, s.Path)
	if err != nil {
		return nil, err
	}
	show := make([]gate.ShowEntry, 0, len(entries))
	for _, e := range entries {
		pattern, err := p.pathPattern(e.Key, s.Path, mountPrefix)
		if err != nil {
			return nil, err
		}
		entry := gate.ShowEntry{Path: pattern, Source: p.source(e.Key)}
		if !isYAMLNull(e.Value) {
			readOnly, err := p.mode(e.Value, e.Path)
			if err != nil {
				return nil, err
			}
			entry.Mode = "rw"
			if readOnly {
				entry.Mode = "ro"
			}
		}
		show = append(show, entry)
	}
	return show, nil
}

// vars reads "vars: {hide: [NAME or glob, …]}" (G-5.5).
func (p *documentParser) vars(f mappingEntry) ([]string, error) {
	fields, err := p.entries(f.Value, f.Path, "hide")
	if err != nil || len(fields) == 0 {
		return nil, err
	}
	items, err := p.list(fields[0].Value, fields[0].Path)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(items))
	for i, item := range items {
		key := documentIndexKey(fields[0].Path, i)
		name, err := p.text(item, key)
		if err != nil {
			return nil, err
		}
		if !isDocumentVarGlob(name) {
			return nil, p.fail(item, key, "%q is not a variable name or a glob over names (like AWS_*)", name)
		}
		if err := validateDocumentGlob(name); err != nil {
			return nil, p.fail(item, key, "invalid glob %q: %v", name, err)
		}
		names = append(names, name)
	}
	return names, nil
}

func isDocumentVarGlob(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') || strings.ContainsRune(`*?[]!^-\`, r)) {
			return false
		}
	}
	return true
}

// validateNameGlob checks one path component or variable-name glob with the
// syntax the gate compiles (G-4.1): `*`, `?`, `[…]` classes (`[!…]`/`[^…]`
// negated, `]` first is a member, ranges ascending) and `\` escapes.
func validateDocumentGlob(glob string) error {
	for i := 0; i < len(glob); {
		switch glob[i] {
		case '\\':
			if i+1 >= len(glob) {
				return fmt.Errorf("trailing \\ escapes nothing")
			}
			_, size := utf8.DecodeRuneInString(glob[i+1:])
			i += 1 + size
		case '[':
			n, err := documentGlobClassLength(glob[i:])
			if err != nil {
				return err
			}
			i += n
		default:
			i++
		}
	}
	return nil
}

// classLength returns the byte length of the "[…]" class at the start of s.
func documentGlobClassLength(s string) (int, error) {
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		i++
	}
	first := true
	for {
		if i >= len(s) {
			return 0, fmt.Errorf("unbalanced [ (no closing ])")
		}
		if s[i] == ']' && !first {
			return i + 1, nil
		}
		first = false
		lo, n, err := documentGlobClassMember(s[i:])
		if err != nil {
			return 0, err
		}
		i += n
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			hi, m, err := documentGlobClassMember(s[i+1:])
			if err != nil {
				return 0, err
			}
			if hi < lo {
				return 0, fmt.Errorf("range %c-%c runs backwards", lo, hi)
			}
			i += 1 + m
		}
	}
}

func documentGlobClassMember(s string) (rune, int, error) {
	if s[0] == '\\' {
		if len(s) < 2 {
			return 0, 0, fmt.Errorf("unbalanced [ (no closing ])")
		}
		r, size := utf8.DecodeRuneInString(s[1:])
		return r, 1 + size, nil
	}
	r, size := utf8.DecodeRuneInString(s)
	return r, size, nil
}
