package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
)

// Profile is a compiled profile: immutable once built and safe for
// concurrent use by every session bound to it.
type Profile struct {
	spec   ProfileSpec
	policy string // "profile:NAME", the G-7.7 policy of profile-level rules
	cwd    string
	// fingerprints digest each document rule, by policy and source (see
	// RuleFingerprint).
	fingerprints map[string]string

	// Tool set (G-3.1 step 1). installAll is true for an omitted allow list
	// and for one whose pattern starts with `*`.
	installAll bool
	installed  map[string]struct{}
	// Allow refinement (G-3.1 step 4), only when an allow list is written.
	refine    bool
	allow     cmdIndex
	allowRule string

	deny, ask cmdIndex // profile-level command-axis rules (no paths)

	// exempt finds the exceptions of each ask rule by its Source, for Waive.
	exempt map[string][]*exemptions

	mounts    []*mountInfo // deepest prefix first, so the first hit holds a path
	cmdMounts bool         // some mount carries command-axis rules (G-5.3)

	root       *pathNode
	hasEntries bool // any hide/show/path rule exists
	hasShow    bool
	hasROShow  bool
	anyRO      bool // some mount is read-only

	varNames map[string]struct{}
	varGlobs []nameGlob

	// policies are the coded policies and the program (G-8); nil when the
	// profile has neither, so the gate and the door pay nothing for them.
	policies *policyChain

	// dirs shares directory facts that no command changes between the
	// commands and sessions of this profile (see dirfacts.go).
	dirs sharedDirFacts
}

// mountInfo is one effective mount with its mount-level command rules.
type mountInfo struct {
	prefix    string
	readOnly  bool
	policy    string // "mount:PREFIX"
	deny, ask cmdIndex
}

// errorf makes a compile error naming the rule's source (G-1.3) and the profile.
func (c *compiler) errorf(source, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if source != "" {
		return fmt.Errorf("%s: profile %q: %s", source, c.p.spec.Name, msg)
	}
	return fmt.Errorf("profile %q: %s", c.p.spec.Name, msg)
}

type compiler struct {
	p       *Profile
	byMount map[string]*mountInfo
	order   int // declaration order across every path entry
}

// Compile validates a profile against the workspace mounts and compiles its
// rules once (G-1.2, G-3.4, G-4.1, G-5.1), and its policy program with the
// coded policies the options add (G-8). Errors name the offending rule's
// Source.
func Compile(spec ProfileSpec, mounts []Mount, opts ...CompileOption) (*Profile, error) {
	c := &compiler{p: &Profile{spec: spec, policy: "profile:" + spec.Name, root: &pathNode{}}}
	p := c.p
	if err := c.compileMounts(mounts); err != nil {
		return nil, err
	}
	p.cwd = "/"
	if spec.Cwd != "" {
		if !strings.HasPrefix(spec.Cwd, "/") {
			return nil, c.errorf(spec.Source, "cwd %q is not absolute", spec.Cwd)
		}
		p.cwd = path.Clean(spec.Cwd)
	}
	if err := c.compileAllow(); err != nil {
		return nil, err
	}
	if err := c.compileRules(spec.Deny, VerbDeny, p.policy, "", &p.deny); err != nil {
		return nil, err
	}
	if err := c.compileRules(spec.Ask, VerbAsk, p.policy, "", &p.ask); err != nil {
		return nil, err
	}
	if err := c.compileHideShow(spec.Hide, spec.Show, p.policy, ""); err != nil {
		return nil, err
	}
	for _, prefix := range slices.Sorted(maps.Keys(spec.Mounts)) {
		if err := c.compileMountRules(prefix, spec.Mounts[prefix]); err != nil {
			return nil, err
		}
	}
	if err := c.compileVars(); err != nil {
		return nil, err
	}
	p.root.finish()
	if err := c.compilePolicies(opts); err != nil {
		return nil, err
	}
	return p, nil
}

// Unrestricted is the profile of a session without one (G-2.2): every
// command is installed, nothing is refused, and the mounts' modes still
// apply at the op door.
func Unrestricted(mounts []Mount) *Profile {
	c := &compiler{p: &Profile{policy: "profile:", cwd: "/", installAll: true, root: &pathNode{}}}
	// Only malformed prefixes can fail, and those are cleaned, not refused.
	cleaned := make([]Mount, len(mounts))
	for i, m := range mounts {
		cleaned[i] = Mount{Prefix: cleanAbs(m.Prefix), ReadOnly: m.ReadOnly}
	}
	_ = c.compileMounts(cleaned)
	c.p.root.finish()
	return c.p
}

func (c *compiler) compileMounts(mounts []Mount) error {
	p := c.p
	c.byMount = make(map[string]*mountInfo, len(mounts))
	for _, m := range mounts {
		if !strings.HasPrefix(m.Prefix, "/") {
			return c.errorf("", "mount prefix %q is not absolute", m.Prefix)
		}
		prefix := path.Clean(m.Prefix)
		mi := &mountInfo{prefix: prefix, readOnly: m.ReadOnly, policy: "mount:" + prefix}
		c.byMount[prefix] = mi
		p.mounts = append(p.mounts, mi)
		p.root.nodeFor(splitClean(prefix)).mount = mi
	}
	sort.SliceStable(p.mounts, func(i, j int) bool {
		return len(p.mounts[i].prefix) > len(p.mounts[j].prefix)
	})
	for _, m := range p.mounts {
		p.anyRO = p.anyRO || m.readOnly
	}
	return nil
}

func splitClean(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

func (c *compiler) compileAllow() error {
	p, spec := c.p, c.p.spec
	if spec.Allow == nil {
		p.installAll = true
		return nil
	}
	p.refine = true
	p.allowRule = spec.AllowSource
	if p.allowRule == "" {
		p.allowRule = spec.Source
	}
	p.installed = make(map[string]struct{}, len(spec.Allow))
	for _, text := range spec.Allow {
		pat, err := compileCmdPattern(text)
		if err != nil {
			return c.errorf(p.allowRule, "allow pattern %q: %v", text, err)
		}
		if word := pat.firstWord(); word == "" {
			p.installAll = true
		} else {
			p.installed[word] = struct{}{}
		}
		p.allow.add(&cmdRule{pattern: pat})
	}
	return nil
}

// compileRules compiles ask or deny rules: a rule without paths joins the
// command axis (ix), a rule with paths becomes a path entry (G-3.1, G-4.1).
func (c *compiler) compileRules(rules []Rule, verb Verb, policy, mountPrefix string, ix *cmdIndex) error {
	for _, r := range rules {
		if len(r.Commands) == 0 && len(r.Paths) == 0 {
			return c.errorf(r.Source, "%s rule covers nothing: it needs a command or paths", verb)
		}
		var pats []cmdPattern
		for _, text := range r.Commands {
			pat, err := compileCmdPattern(text)
			if err != nil {
				return c.errorf(r.Source, "%s rule: command pattern %q: %v", verb, text, err)
			}
			pats = append(pats, pat)
		}
		ex, err := c.exemptionsOf(r, verb, policy)
		if err != nil {
			return err
		}
		rec := Refusal{Kind: string(verb), Reason: r.Reason, Policy: policy, Rule: r.Source}
		if c.p.fingerprints == nil {
			c.p.fingerprints = map[string]string{}
		}
		c.p.fingerprints[policy+"\x00"+r.Source] = fingerprint(verb, r, mountPrefix)
		if len(r.Paths) == 0 {
			rec.Scope = "command"
			for _, pat := range pats {
				ix.add(&cmdRule{pattern: pat, refusal: rec, exempt: ex})
			}
			continue
		}
		rec.Scope = "operand"
		for _, text := range r.Paths {
			e := &pathEntry{verb: verb, commands: pats, refusal: rec,
				reason: r.Reason, rule: r.Source, policy: policy, exempt: ex}
			if err := c.addEntry(e, text, mountPrefix); err != nil {
				return c.errorf(r.Source, "%s rule: %v", verb, err)
			}
		}
	}
	return nil
}

// exemptionsOf compiles an ask rule's exceptions (nil for a deny rule,
// which may not carry any: an amendment only ever waives a question).
func (c *compiler) exemptionsOf(r Rule, verb Verb, policy string) (*exemptions, error) {
	if verb != VerbAsk {
		if len(r.Except) > 0 {
			return nil, c.errorf(r.Source, "%s rule: except belongs to ask rules only", verb)
		}
		return nil, nil
	}
	for _, x := range r.Except {
		if len(x.Argv) == 0 {
			return nil, c.errorf(r.Source, "ask rule: an exception needs a command")
		}
		if x.Cwd != "" && !strings.HasPrefix(x.Cwd, "/") {
			return nil, c.errorf(r.Source, "ask rule: exception cwd %q is not absolute", x.Cwd)
		}
	}
	written := make([]Exception, len(r.Except))
	for i, x := range r.Except {
		written[i] = x
		if x.Cwd != "" {
			written[i].Cwd = path.Clean(x.Cwd)
		}
		if x.Paths != nil {
			written[i].Paths = make([]string, len(x.Paths))
			for j, p := range x.Paths {
				if !strings.HasPrefix(p, "/") {
					return nil, c.errorf(r.Source, "ask rule: exception path %q is not absolute", p)
				}
				written[i].Paths[j] = path.Clean(p)
			}
		}
	}
	ex := newExemptions(written, policy, r.Source)
	if c.p.exempt == nil {
		c.p.exempt = make(map[string][]*exemptions)
	}
	c.p.exempt[r.Source] = append(c.p.exempt[r.Source], ex)
	return ex, nil
}

func (c *compiler) compileHideShow(hide []PathGroup, show []ShowEntry, policy, mountPrefix string) error {
	for _, g := range hide {
		if len(g.Paths) == 0 {
			return c.errorf(g.Source, "hide entry covers nothing: it needs paths")
		}
		for _, text := range g.Paths {
			e := &pathEntry{verb: VerbHide, reason: g.Reason, rule: g.Source, policy: policy}
			if err := c.addEntry(e, text, mountPrefix); err != nil {
				return c.errorf(g.Source, "hide: %v", err)
			}
		}
	}
	for _, s := range show {
		if s.Mode != "" && s.Mode != "ro" && s.Mode != "rw" {
			return c.errorf(s.Source, "show %q: mode %q is not ro or rw", s.Path, s.Mode)
		}
		e := &pathEntry{verb: VerbShow, readOnly: s.Mode == "ro", rule: s.Source, policy: policy}
		if err := c.addEntry(e, s.Path, mountPrefix); err != nil {
			return c.errorf(s.Source, "show: %v", err)
		}
		c.p.hasShow = true
		c.p.hasROShow = c.p.hasROShow || e.readOnly
	}
	return nil
}

// addEntry compiles the entry's pattern (joined to mountPrefix for
// mount-level rules) and files it under its anchor.
func (c *compiler) addEntry(e *pathEntry, text, mountPrefix string) error {
	if strings.TrimSpace(text) == "" {
		return errors.New("empty path pattern")
	}
	full := text
	if mountPrefix != "" {
		var err error
		if full, err = joinMountPattern(mountPrefix, text); err != nil {
			return err
		}
	}
	pat, err := compilePathPattern(full)
	if err != nil {
		return fmt.Errorf("path pattern %q: %v", text, err)
	}
	e.pattern = pat
	e.order = c.order
	c.order++
	node := c.p.root.nodeFor(pat.anchor)
	node.entries = append(node.entries, e)
	c.p.hasEntries = true
	return nil
}

func (c *compiler) compileMountRules(prefix string, mr MountRules) error {
	m := c.byMount[cleanAbs(prefix)]
	if m == nil || !strings.HasPrefix(prefix, "/") {
		known := slices.Sorted(maps.Keys(c.byMount))
		return c.errorf(mr.Source, "mount rules for %q, which is not a mount (mounts: %s)",
			prefix, strings.Join(known, ", "))
	}
	// Narrowing only ever weakens (G-5.1): ro stays ro whatever is written.
	if mr.ReadOnly {
		m.readOnly = true
		c.p.anyRO = true
	}
	if err := c.compileRules(mr.Deny, VerbDeny, m.policy, m.prefix, &m.deny); err != nil {
		return err
	}
	if err := c.compileRules(mr.Ask, VerbAsk, m.policy, m.prefix, &m.ask); err != nil {
		return err
	}
	if m.deny.size+m.ask.size > 0 {
		c.p.cmdMounts = true
	}
	return c.compileHideShow(mr.Hide, mr.Show, m.policy, m.prefix)
}

func (c *compiler) compileVars() error {
	p := c.p
	for _, name := range p.spec.VarsHide {
		g, err := compileNameGlob(name)
		if err != nil || name == "" {
			return c.errorf(p.spec.Source, "vars.hide %q is not a name or a glob over names", name)
		}
		if g.isLit {
			if p.varNames == nil {
				p.varNames = make(map[string]struct{})
			}
			p.varNames[g.literal] = struct{}{}
		} else {
			p.varGlobs = append(p.varGlobs, g)
		}
	}
	return nil
}

// Name is the profile's name ("" for Unrestricted).
func (p *Profile) Name() string { return p.spec.Name }

// Spec is the profile as written.
func (p *Profile) Spec() ProfileSpec { return p.spec }

// Cwd is the directory sessions start in (G-5.4); "/" by default.
func (p *Profile) Cwd() string { return p.cwd }

// Env is a copy of the variables seeded and exported at session creation.
func (p *Profile) Env() map[string]string { return maps.Clone(p.spec.Env) }

// Installed reports whether name is in the session's tool set (G-3.1): every
// name when allow is omitted or holds a pattern starting with `*`, none for
// an empty allow list, else the first words of the allow patterns. The shell
// intersects this with the commands it actually provides (G-3.7).
func (p *Profile) Installed(name string) bool {
	if p.installAll {
		return true
	}
	_, ok := p.installed[name]
	return ok
}

// VarHidden reports whether a variable reads as unset for the session
// (G-5.5).
func (p *Profile) VarHidden(name string) bool {
	if _, ok := p.varNames[name]; ok {
		return true
	}
	for i := range p.varGlobs {
		if p.varGlobs[i].match(name) {
			return true
		}
	}
	return false
}

// Mounts are the workspace mounts with the profile's narrowing applied
// (G-5.1), sorted by prefix.
func (p *Profile) Mounts() []Mount {
	out := make([]Mount, 0, len(p.mounts))
	for _, m := range p.mounts {
		out = append(out, Mount{Prefix: m.prefix, ReadOnly: m.readOnly})
	}
	slices.SortFunc(out, func(a, b Mount) int { return strings.Compare(a.Prefix, b.Prefix) })
	return out
}

// mountOf returns the mount holding an absolute cleaned path, or nil.
func (p *Profile) mountOf(name string) *mountInfo {
	for _, m := range p.mounts {
		if within(name, m.prefix) {
			return m
		}
	}
	return nil
}

// fingerprint digests what a rule says, exceptions aside (an amendment
// that waives one command leaves the rule the same rule).
func fingerprint(verb Verb, r Rule, mountPrefix string) string {
	b, _ := json.Marshal(struct {
		Verb     Verb
		Reason   string
		Commands []string
		Paths    []string
		Mount    string
	}{verb, r.Reason, r.Commands, r.Paths, mountPrefix})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// RuleFingerprint is a digest of what the document rule written at rule
// (its Refusal.Rule) for policy says: its verb, reason, commands, paths and
// mount; "" for anything else (policies, allow refinement). A rule
// rewritten where another was written has another fingerprint, so an
// allow for session given for one never settles the other (G-9.5).
func (p *Profile) RuleFingerprint(policy, rule string) string {
	return p.fingerprints[policy+"\x00"+rule]
}
