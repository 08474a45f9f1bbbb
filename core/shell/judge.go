package shell

import (
	"context"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/interp"

	"gatehouse/core/gate"
	"gatehouse/core/shell/utils"
)

// admission is the execution gate's decision for one command (G-9.4).
type admission struct {
	run bool
	// refused is what the agent reads when !run and the line goes on.
	refused *Refused
	scope   *gate.OpScope
	// halt: the line must end now (an unanswered ask, G-9.4).
	halt error
}

// provided reports whether the shell has an implementation for name.
func provided(name string) bool {
	return interp.IsBuiltin(name) || utils.Lookup(name) != nil || name == "bash" || name == "sh"
}

// installed: in the session's tool set and provided by the shell (G-3.1, G-3.7).
func (s *Shell) installed(name string) bool {
	return provided(name) && s.cfg.Profile.Installed(name)
}

// command builds the gate's view of argv run in dir: operands resolved.
func (s *Shell) command(line string, argv []string, dir string, extra []gate.Operand) gate.Command {
	return gate.Command{Argv: argv, Cwd: dir, Operands: append(operandsOf(argv, dir), extra...), Line: line,
		Session: s.sessionInfo(), Resolver: s.resolver}
}

func (ls *lineState) lineText() string {
	if ls == nil {
		return ""
	}
	return ls.text
}

// grantKey names what an allow-for-session of this refusal covers: the rule
// that asked, as written (where and what it says, so a rule rewritten in
// its place is another); for a policy, which of its questions (hook and
// reason), so one answer does not cover every question a program can raise.
func grantKey(r *gate.Refusal, fingerprint string) string {
	if strings.HasPrefix(r.Policy, "profile:") || strings.HasPrefix(r.Policy, "mount:") || r.Policy == "allow" {
		return r.Policy + "|" + r.Rule + "|" + fingerprint
	}
	return r.Policy + "|" + r.Rule + "|" + r.Hook + "|" + r.Reason
}

// question is what an ask verdict on argv at place asks the host: every
// ask rule the command meets, each once with the operands it reaches, and
// the facts an answer is bound to. Session grants are not consulted here
// (see narrow).
func (s *Shell) question(ls *lineState, place string, argv []string, cmd gate.Command, v gate.Verdict) Question {
	paths := make([]string, 0, len(cmd.Operands))
	var written map[string]bool
	for _, o := range cmd.Operands {
		paths = append(paths, o.Path)
		if o.Write {
			if written == nil {
				written = map[string]bool{}
			}
			written[o.Path] = true
			if o.Real != "" {
				written[o.Real] = true
			}
		}
	}
	asks := v.Asks
	if len(asks) == 0 && v.Refusal != nil {
		asks = []gate.Refusal{*v.Refusal}
	}
	var rules []AskRule
	for _, a := range asks {
		key := grantKey(&a, s.cfg.Profile.RuleFingerprint(a.Policy, a.Rule))
		i := 0
		for i < len(rules) && rules[i].Key != key {
			i++
		}
		if i == len(rules) {
			rules = append(rules, AskRule{Key: key, Reason: a.Reason, Rule: a.Rule, Policy: a.Policy, Refusal: a})
		}
		if a.Path != "" && !slices.Contains(rules[i].Paths, a.Path) {
			rules[i].Paths = append(rules[i].Paths, a.Path)
		}
	}
	q := Question{
		SessionID: s.cfg.SessionID,
		Line:      ls.text,
		Place:     place,
		Command:   strings.Join(argv, " "),
		Argv:      argv,
		Cwd:       cmd.Cwd,
		Paths:     paths,
		Rules:     rules,
		resolved:  s.resolvePaths(paths),
		written:   written,
	}
	for i, p := range q.Paths {
		if written[p] && i < len(q.resolved) {
			written[q.resolved[i]] = true
		}
	}
	if len(rules) > 0 {
		q.Refusal = rules[0].Refusal
	}
	q.Facts = q.factsDigest()
	return q
}

// resolvePaths follows every symlink of each path, so that a question's
// facts change when a link it read through is pointed elsewhere (G-9.5). A
// path that does not exist (yet) keeps its resolved parent.
func (s *Shell) resolvePaths(paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	v := s.cfg.VFS.View(nil)
	out := make([]string, len(paths))
	for i, p := range paths {
		if r, err := v.Resolve(p); err == nil {
			out[i] = r
		} else if dir, err := v.Resolve(path.Dir(p)); err == nil {
			out[i] = path.Join(dir, path.Base(p))
		} else {
			out[i] = p
		}
	}
	return out
}

// narrow drops from q the rules a session grant settles, asking the host
// once per rule and line (G-9.5: allow for session settles its rule only),
// so a loop or xargs asking the same rule thousands of times asks the
// ledger once. An allow for session answering this line's own question
// counts at once (settledForSession); one given elsewhere while the line
// runs counts from the next line. It returns the question with what is left, its first refusal
// and its facts updated.
func (s *Shell) narrow(ctx context.Context, ls *lineState, q Question) Question {
	host := s.cfg.Host
	if host == nil {
		return q
	}
	var unknown []string
	ls.mu.Lock()
	for _, r := range q.Rules {
		if _, known := ls.sessionKeys[r.Key]; !known {
			unknown = append(unknown, r.Key)
		}
	}
	ls.mu.Unlock()
	if len(unknown) > 0 {
		held := host.Settled(ctx, q.SessionID, unknown)
		ls.mu.Lock()
		if ls.sessionKeys == nil {
			ls.sessionKeys = map[string]bool{}
		}
		for _, k := range unknown {
			ls.sessionKeys[k] = slices.Contains(held, k)
		}
		ls.mu.Unlock()
	}
	ls.mu.Lock()
	left := make([]AskRule, 0, len(q.Rules))
	for _, r := range q.Rules {
		if !ls.sessionKeys[r.Key] {
			left = append(left, r)
		}
	}
	ls.mu.Unlock()
	if len(left) == len(q.Rules) {
		return q
	}
	q.Rules = left
	q.Refusal = gate.Refusal{}
	if len(left) > 0 {
		q.Refusal = left[0].Refusal
		q.Facts = q.factsDigest()
	}
	return q
}

// pathGrants are the door's grants for the rules of q at the paths q
// showed, as spelled and after symlinks.
func pathGrants(q Question) []gate.PathGrant {
	var grants []gate.PathGrant
	for _, r := range q.Rules {
		for _, p := range r.Paths {
			write := q.written[p]
			grants = append(grants, gate.PathGrant{Policy: r.Policy, Rule: r.Rule, Path: p, Write: write})
			if i := slices.Index(q.Paths, p); i >= 0 && i < len(q.resolved) && q.resolved[i] != p {
				grants = append(grants, gate.PathGrant{Policy: r.Policy, Rule: r.Rule, Path: q.resolved[i], Write: write})
			}
		}
	}
	return grants
}

// settle finds or obtains an answer for a question at the execution gate
// (G-9.4): an answer the line holds at the place for this command (see
// lineState.standing), else one standing in the ledger for exactly these
// facts, else the host's answer. It returns the standing, the refusal to
// record when the answer is a deny or still pending, and a halt error when
// the host failed.
func (s *Shell) settle(ctx context.Context, ls *lineState, q Question) (Standing, *gate.Refusal, error) {
	if c, ok := ls.standing(q, q.Facts); ok {
		return c.Standing, refusalFromClaim(q, c), nil
	}
	if s.cfg.Host == nil {
		r := q.Refusal
		r.Status = "pending"
		return NoAnswer, &r, nil
	}
	standing, c, held, ref, err := s.obtain(ctx, ls, q)
	if held {
		ls.hold(q.Place, &placeClaim{claim: c, rules: q.ruleKeys(), asked: q.Facts, facts: q.Facts, command: q.Argv[0]})
	}
	return standing, ref, err
}

// obtain gets q's answer from the host: a grant or refusal standing for
// exactly q, claimed, else the host's word on the question raised (waiting
// for it with an inline handler). held reports that the line must keep c
// and spend it when it ends; a deny given inline is not held: it stands
// for the agent's retry (G-10.4). ref is the record of a deny or of a
// question still pending.
func (s *Shell) obtain(ctx context.Context, ls *lineState, q Question) (standing Standing, c Claim, held bool, ref *gate.Refusal, err error) {
	host := s.cfg.Host
	if c, ok := host.Lookup(ctx, q); ok {
		ls.heard(c, c.Note)
		return c.Standing, c, true, refusalFromClaim(q, c), nil
	}
	reply, err := host.Ask(ctx, q)
	if err != nil {
		return NoAnswer, Claim{}, false, nil, err
	}
	switch reply.Outcome {
	case "allow":
		if reply.Session {
			ls.settledForSession(q.Rules)
		}
		ls.heard(Claim{Standing: Allowed, AskID: reply.AskID}, reply.Note)
		return Allowed, reply.Claim, true, nil, nil
	case "deny":
		c := reply.Claim
		c.Standing = Denied
		c.AskID = reply.AskID
		c.Note = reply.Note
		return Denied, c, false, refusalFromClaim(q, c), nil
	}
	r := q.Refusal
	r.AskID = reply.AskID
	r.Status = "pending"
	return NoAnswer, Claim{}, false, &r, nil
}

// heard keeps the note of an allow c stands for, once per ask, for the
// line's result (G-9.5); a deny's note travels on its refusal record.
func (ls *lineState) heard(c Claim, note string) {
	note = strings.TrimSpace(note)
	if c.Standing != Allowed || note == "" {
		return
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for _, n := range ls.notes {
		if n.AskID == c.AskID {
			return
		}
	}
	ls.notes = append(ls.notes, ReviewerNote{AskID: c.AskID, Note: note})
}

// refusalFromClaim is the deny record a deny-once answer yields (G-9.5).
func refusalFromClaim(q Question, c Claim) *gate.Refusal {
	if c.Standing != Denied {
		return nil
	}
	// A host's deny refuses the whole command (G-9.5).
	r := q.Refusal
	r.Kind = "deny"
	r.Scope = "command"
	r.AskID = c.AskID
	r.Status = ""
	r.Note = c.Note
	return &r
}

// askVoice is the verdict whose refusal the agent reads for q: the rule
// left asking after session grants, at its own operand of cmd.
func askVoice(v gate.Verdict, q Question, cmd gate.Command) gate.Verdict {
	if len(q.Rules) == 0 || (v.Refusal != nil && *v.Refusal == q.Refusal) {
		return v
	}
	r := q.Refusal
	v.Refusal, v.Operand = &r, nil
	if r.Scope == gate.ScopeOperand {
		for i := range cmd.Operands {
			if cmd.Operands[i].Path == r.Path {
				v.Operand = &cmd.Operands[i]
				break
			}
		}
	}
	return v
}

// admit is the execution gate for one command at place (G-9.4).
func (s *Shell) admit(ctx context.Context, ls *lineState, place string, argv []string, dir string, extra []gate.Operand) admission {
	if ls != nil {
		if n := ls.commands.Add(1); n > int64(s.limits.Commands) {
			return admission{halt: &errHalt{125, "gatehouse: line exceeded the limit of " + itoa(s.limits.Commands) + " commands"}}
		}
	}
	name := argv[0]
	// A file operation of the Session API is never an installed command
	// (no utility has its name), so only a word that is not installed
	// needs the context's say.
	fileOp := false
	if !s.installed(name) {
		if fileOp = isFileOp(ctx); !fileOp {
			return admission{refused: notFound(name)}
		}
	}
	cmd := s.command(ls.lineText(), argv, dir, extra)
	cmd.FileOp = fileOp
	v := s.cfg.Profile.Judge(cmd)
	switch v.Outcome {
	case gate.NotFound:
		return admission{refused: refused(v, argv, nil)}
	case gate.Deny:
		if v.Refusal.Scope == "command" {
			if ls != nil {
				ls.addRefusal(*v.Refusal)
			}
			return admission{refused: refused(v, argv, v.Refusal)}
		}
		// Operand denies: the command runs; each denied operand fails where
		// it is touched (G-4.10).
		if ls != nil {
			for _, or := range v.OperandRefusals {
				ls.addRefusal(*or.Refusal)
			}
		}
		return admission{run: true, scope: &gate.OpScope{Refused: v.OperandRefusals, Command: &cmd, Cleared: v.Cleared, Grants: v.Waived}}
	case gate.Ask:
		if ls == nil {
			return admission{refused: &Refused{Code: 126, Stderr: "gatehouse: no line to ask on\n"}}
		}
		full := s.question(ls, place, argv, cmd, v)
		q := s.narrow(ctx, ls, full)
		standing := Allowed
		var ref *gate.Refusal
		if len(q.Rules) > 0 {
			var err error
			if standing, ref, err = s.settle(ctx, ls, q); err != nil {
				return admission{halt: err}
			}
		}
		switch standing {
		case Allowed:
			// The answer opens the rules it named (and those a session
			// grant settles) at the paths the command showed, no more.
			grants := pathGrants(full)
			ls.grantPaths(grants)
			return admission{run: true, scope: &gate.OpScope{Grants: grants, Command: &cmd, Cleared: v.Cleared}}
		case Denied:
			ls.addRefusal(*ref)
			return admission{refused: refused(hostDenied, argv, ref)}
		}
		// Unanswered: the whole line ends here with the pending record.
		ls.addRefusal(*ref)
		ls.mu.Lock()
		ls.halted = ref
		ls.waiting = true
		ls.mu.Unlock()
		text, _ := refusalText(askVoice(v, q, cmd), argv)
		return admission{halt: &errHalt{126, strings.TrimSuffix(text, "\n")}}
	}
	// An ask rule's exception covering the command opens its rule at the
	// exception's paths for this command only (Verdict.Waived).
	return admission{run: true, scope: &gate.OpScope{Command: &cmd, Cleared: v.Cleared, Grants: v.Waived}}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
