package document

import (
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"gatehouse/core/gate"
)

// maxPolicyFileBytes bounds how much of a policy file is read at load time:
// programs are small, and a path naming a huge or endless file must fail
// rather than exhaust memory.
const maxPolicyFileBytes = 1 << 20

// profiles reads the "profiles" mapping: profiles in document order, and the
// name under the reserved key "default" (G-2.2).
func (p *documentParser) profiles(e mappingEntry) ([]gate.ProfileSpec, string, error) {
	entries, err := p.entries(e.Value, e.Path)
	if err != nil {
		return nil, "", err
	}
	var specs []gate.ProfileSpec
	var defaultEntry *mappingEntry
	for i, pe := range entries {
		if pe.Name == "default" {
			if isYAMLNull(pe.Value) || pe.Value.Kind != yaml.ScalarNode {
				return nil, "", p.fail(pe.Value, pe.Path, `"default" takes the name of a profile, got %s (a profile can't be named "default")`, describeYAMLNode(pe.Value))
			}
			defaultEntry = &entries[i]
			continue
		}
		if strings.TrimSpace(pe.Name) == "" {
			return nil, "", p.fail(pe.Key, e.Path, "a profile needs a name")
		}
		spec, err := p.profile(pe)
		if err != nil {
			return nil, "", err
		}
		specs = append(specs, spec)
	}
	if defaultEntry == nil {
		return specs, "", nil
	}
	name := defaultEntry.Value.Value
	names := make([]string, 0, len(specs))
	for _, s := range specs {
		if s.Name == name {
			return specs, name, nil
		}
		names = append(names, s.Name)
	}
	known := "no profiles are defined"
	if len(names) > 0 {
		known = "profiles: " + strings.Join(names, ", ")
	}
	return nil, "", p.fail(defaultEntry.Value, defaultEntry.Path, "names undefined profile %q (%s)", name, known)
}

// profile reads one profile; its Source is where its name is written. A null
// body (`guest:`) is a profile with no rules.
func (p *documentParser) profile(e mappingEntry) (gate.ProfileSpec, error) {
	spec := gate.ProfileSpec{Name: e.Name, Source: p.source(e.Key)}
	if isYAMLNull(e.Value) {
		return spec, nil
	}
	fields, err := p.entries(e.Value, e.Path, "cwd", "env", "commands", "paths", "vars", "mounts", "policy")
	if err != nil {
		return spec, err
	}
	for _, f := range fields {
		switch f.Name {
		case "cwd":
			spec.Cwd, err = p.cwd(f)
		case "env":
			spec.Env, err = p.env(f)
		case "commands":
			err = p.profileCommands(f, &spec)
		case "paths":
			spec.Hide, spec.Show, err = p.pathSection(f, "")
		case "vars":
			spec.VarsHide, err = p.vars(f)
		case "mounts":
			spec.Mounts, err = p.profileMounts(f)
		case "policy":
			spec.Policy, err = p.policy(f)
		}
		if err != nil {
			return spec, err
		}
	}
	return spec, nil
}

// cwd reads the session's starting directory: absolute, and inside a mount
// (or "/"), so a typo fails at load rather than at every session start.
func (p *documentParser) cwd(f mappingEntry) (string, error) {
	dir, err := p.text(f.Value, f.Path)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(dir, "/") {
		return "", p.fail(f.Value, f.Path, "cwd %q must be an absolute path", dir)
	}
	dir = path.Clean(dir)
	if dir == "/" {
		return dir, nil
	}
	for prefix := range p.mountReadOnly {
		if dir == prefix || strings.HasPrefix(dir, prefix+"/") {
			return dir, nil
		}
	}
	return "", p.fail(f.Value, f.Path, "cwd %s is not inside any mount (%s)", dir, strings.Join(p.mountPrefixes(), ", "))
}

func (p *documentParser) mountPrefixes() []string {
	prefixes := make([]string, 0, len(p.mountReadOnly))
	for prefix := range p.mountReadOnly {
		prefixes = append(prefixes, prefix)
	}
	sort.Strings(prefixes)
	return prefixes
}

// env reads the variables seeded and exported at session creation (G-5.4).
func (p *documentParser) env(f mappingEntry) (map[string]string, error) {
	entries, err := p.entries(f.Value, f.Path)
	if err != nil {
		return nil, err
	}
	env := make(map[string]string, len(entries))
	for _, e := range entries {
		if !isDocumentVarName(e.Name) {
			return nil, p.fail(e.Key, f.Path, "%q is not a variable name (letters, digits and _, not starting with a digit)", e.Name)
		}
		if env[e.Name], err = p.optionalText(e.Value, e.Path); err != nil {
			return nil, err
		}
	}
	return env, nil
}

func isDocumentVarName(s string) bool {
	for i, r := range s {
		letter := r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

// profileCommands reads a profile's command axis (G-3.1).
func (p *documentParser) profileCommands(f mappingEntry, spec *gate.ProfileSpec) error {
	fields, err := p.entries(f.Value, f.Path, "allow", "ask", "deny")
	if err != nil {
		return err
	}
	for _, c := range fields {
		switch c.Name {
		case "allow":
			spec.AllowSource = p.source(c.Key)
			spec.Allow, err = p.allowList(c)
		case "ask":
			spec.Ask, err = p.rules(c, "")
		case "deny":
			spec.Deny, err = p.rules(c, "")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// allowList reads the tool set. An empty list stays a non-nil empty slice:
// `allow: []` installs nothing, while an omitted allow installs everything.
func (p *documentParser) allowList(c mappingEntry) ([]string, error) {
	items, err := p.list(c.Value, c.Path)
	if err != nil {
		return nil, err
	}
	allow := make([]string, 0, len(items))
	for i, item := range items {
		key := documentIndexKey(c.Path, i)
		if item.Kind == yaml.MappingNode {
			return nil, p.fail(item, key, "allow takes command patterns only; rules with reasons go under ask or deny")
		}
		pattern, err := p.commandPattern(item, key)
		if err != nil {
			return nil, err
		}
		allow = append(allow, pattern)
	}
	return allow, nil
}

// commandPattern reads one command pattern ("git push", "*"), kept as written.
func (p *documentParser) commandPattern(n *yaml.Node, key string) (string, error) {
	text, err := p.text(n, key)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(text) == "" {
		return "", p.fail(n, key, "empty command pattern")
	}
	return text, nil
}

// rules reads an ask or deny list. mountPrefix is "" at profile level, where
// path patterns must be absolute, or the mount whose rules these are.
func (p *documentParser) rules(c mappingEntry, mountPrefix string) ([]gate.Rule, error) {
	items, err := p.list(c.Value, c.Path)
	if err != nil {
		return nil, err
	}
	rules := make([]gate.Rule, 0, len(items))
	for i, item := range items {
		rule, err := p.rule(item, documentIndexKey(c.Path, i), mountPrefix, c.Name == "ask")
		if err != nil {
			return nil, err
		}
		rules = append(rules, rule)
	}
	return rules, nil
}

// rule reads one rule (G-1.2): a bare command pattern, or a mapping with a
// reason and what it covers. An ask rule may also list the exact commands
// it no longer asks about (except, see document_except.go).
func (p *documentParser) rule(n *yaml.Node, key, mountPrefix string, isAsk bool) (gate.Rule, error) {
	rule := gate.Rule{Source: p.source(n)}
	if n.Kind == yaml.ScalarNode && !isYAMLNull(n) {
		pattern, err := p.commandPattern(n, key)
		rule.Commands = []string{pattern}
		return rule, err
	}
	if n.Kind != yaml.MappingNode {
		return rule, p.fail(n, key, "want a command pattern or a mapping with reason and command, commands or paths, got %s", describeYAMLNode(n))
	}
	fields, err := p.entries(n, key, "reason", "command", "commands", "paths", "except")
	if err != nil {
		return rule, err
	}
	var commandKey *yaml.Node
	for _, f := range fields {
		switch f.Name {
		case "reason":
			rule.Reason, err = p.optionalText(f.Value, f.Path)
		case "command", "commands":
			if commandKey != nil {
				return rule, p.fail(f.Key, key, "a rule takes command or commands, not both")
			}
			commandKey = f.Key
			rule.Commands, err = p.rulePatterns(f)
		case "paths":
			rule.Paths, err = p.pathList(f, mountPrefix)
		case "except":
			if !isAsk {
				return rule, p.fail(f.Key, key, "except belongs to ask rules only: a deny is never waived")
			}
			rule.Except, err = p.exceptions(f)
		}
		if err != nil {
			return rule, err
		}
	}
	if len(rule.Commands) == 0 && len(rule.Paths) == 0 {
		return rule, p.fail(n, key, "rule covers nothing: give it command, commands or paths")
	}
	return rule, nil
}

// rulePatterns reads "command: PATTERN" or "commands: [PATTERN, …]".
func (p *documentParser) rulePatterns(f mappingEntry) ([]string, error) {
	if f.Name == "command" {
		pattern, err := p.commandPattern(f.Value, f.Path)
		return []string{pattern}, err
	}
	items, err := p.list(f.Value, f.Path)
	if err != nil || len(items) == 0 {
		return nil, err
	}
	patterns := make([]string, 0, len(items))
	for i, item := range items {
		pattern, err := p.commandPattern(item, documentIndexKey(f.Path, i))
		if err != nil {
			return nil, err
		}
		patterns = append(patterns, pattern)
	}
	return patterns, nil
}

// profileMounts reads a profile's per-mount narrowing (G-5.1, G-5.3).
func (p *documentParser) profileMounts(f mappingEntry) (map[string]gate.MountRules, error) {
	entries, err := p.entries(f.Value, f.Path)
	if err != nil {
		return nil, err
	}
	mounts := make(map[string]gate.MountRules, len(entries))
	for _, e := range entries {
		readOnly, declared := p.mountReadOnly[e.Name]
		if !declared {
			return nil, p.fail(e.Key, f.Path, "%q is not a mount of this workspace (mounts: %s)", e.Name, strings.Join(p.mountPrefixes(), ", "))
		}
		rules, err := p.mountRules(e, readOnly)
		if err != nil {
			return nil, err
		}
		mounts[e.Name] = rules
	}
	return mounts, nil
}

func (p *documentParser) mountRules(e mappingEntry, mountReadOnly bool) (gate.MountRules, error) {
	rules := gate.MountRules{Source: p.source(e.Key)}
	if isYAMLNull(e.Value) {
		return rules, nil
	}
	fields, err := p.entries(e.Value, e.Path, "mode", "paths", "commands")
	if err != nil {
		return rules, err
	}
	for _, f := range fields {
		switch f.Name {
		case "mode":
			rules.ReadOnly, err = p.mode(f.Value, f.Path)
			if err == nil && mountReadOnly && !rules.ReadOnly {
				return rules, p.fail(f.Value, f.Path, "mount %s is ro in the workspace; a profile may narrow rw to ro, never raise it", e.Name)
			}
		case "paths":
			rules.Hide, rules.Show, err = p.pathSection(f, e.Name)
		case "commands":
			rules.Ask, rules.Deny, err = p.mountCommands(f, e.Name)
		}
		if err != nil {
			return rules, err
		}
	}
	return rules, nil
}

// mountCommands reads a mount's ask and deny rules; the tool set is the
// profile's alone, so allow here is an error (G-5.3).
func (p *documentParser) mountCommands(f mappingEntry, prefix string) (ask, deny []gate.Rule, err error) {
	fields, err := p.entries(f.Value, f.Path, "ask", "deny", "allow")
	if err != nil {
		return nil, nil, err
	}
	for _, c := range fields {
		switch c.Name {
		case "allow":
			return nil, nil, p.fail(c.Key, f.Path, "mount-level commands carry ask and deny only; allow belongs to the profile's commands")
		case "ask":
			ask, err = p.rules(c, prefix)
		case "deny":
			deny, err = p.rules(c, prefix)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return ask, deny, nil
}

// policy reads a profile's policy program (G-8) and reads its file now, so a
// missing program fails at load rather than at the first command.
func (p *documentParser) policy(f mappingEntry) (*gate.PolicySpec, error) {
	fields, err := p.entries(f.Value, f.Path, "engine", "file", "source", "timeout")
	if err != nil {
		return nil, err
	}
	spec := &gate.PolicySpec{Source: p.source(f.Key)}
	var programKey *yaml.Node
	for _, e := range fields {
		switch e.Name {
		case "engine":
			spec.Engine, err = p.text(e.Value, e.Path)
			if err == nil && spec.Engine != "starlark" && spec.Engine != "javascript" {
				return nil, p.fail(e.Value, e.Path, "engine must be starlark or javascript, got %q", spec.Engine)
			}
		case "file", "source":
			if programKey != nil {
				return nil, p.fail(e.Key, f.Path, "a policy takes file or source, not both")
			}
			programKey = e.Key
			if e.Name == "file" {
				err = p.policyFile(e, spec)
			} else {
				spec.Name = "inline"
				spec.Code, err = p.text(e.Value, e.Path)
			}
		case "timeout":
			var timeout time.Duration
			timeout, err = p.duration(e.Value, e.Path)
			spec.Timeout = int64(timeout)
		}
		if err != nil {
			return nil, err
		}
	}
	if spec.Engine == "" {
		return nil, p.fail(f.Value, f.Path, "policy needs engine: starlark or javascript")
	}
	if programKey == nil {
		return nil, p.fail(f.Value, f.Path, "policy needs its program: file: PATH or source: TEXT")
	}
	return spec, nil
}

func (p *documentParser) policyFile(e mappingEntry, spec *gate.PolicySpec) error {
	name, err := p.text(e.Value, e.Path)
	if err != nil {
		return err
	}
	if name == "" {
		return p.fail(e.Value, e.Path, "policy file name is empty")
	}
	file := p.hostPath(name)
	info, err := os.Stat(file)
	switch {
	case err != nil:
		return p.fail(e.Value, e.Path, "policy file %s: %v", file, documentPathErrno(err))
	case !info.Mode().IsRegular():
		return p.fail(e.Value, e.Path, "policy file %s is not a regular file", file)
	}
	fh, err := os.Open(file)
	if err != nil {
		return p.fail(e.Value, e.Path, "policy file %s: %v", file, documentPathErrno(err))
	}
	defer fh.Close()
	code, err := io.ReadAll(io.LimitReader(fh, maxPolicyFileBytes+1))
	switch {
	case err != nil:
		return p.fail(e.Value, e.Path, "policy file %s: %v", file, err)
	case len(code) > maxPolicyFileBytes:
		return p.fail(e.Value, e.Path, "policy file %s is larger than %d bytes", file, maxPolicyFileBytes)
	}
	spec.File, spec.Code, spec.Name = file, string(code), filepath.Base(file)
	return nil
}
