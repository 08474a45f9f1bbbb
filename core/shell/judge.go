package shell

import (
	"context"
	"strings"

	"mvdan.cc/sh/v3/interp"

	"gatehouse/core/gate"
	"gatehouse/core/shell/utils"
)

// admission is the execution gate's decision for one command (G-9.4).
type admission struct {
	run    bool
	exit   int    // when !run
	stderr string // when !run
	scope  *gate.OpScope
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
	return gate.Command{Argv: argv, Cwd: dir, Operands: append(operandsOf(argv, dir), extra...), Line: line, Session: s.sessionInfo()}
}

func (ls *lineState) lineText() string {
	if ls == nil {
		return ""
	}
	return ls.text
}

// refusalText is the one rendering of a refused command, shared by the run
// and by explain (G-11.1): stderr and exit code.
func refusalText(v gate.Verdict, argv []string) (string, int) {
	name := argv[0]
	switch v.Outcome {
	case gate.NotFound:
		return name + ": command not found\n", 127
	case gate.Deny, gate.Ask:
		code := 126
		if v.Refusal != nil && v.Refusal.Scope == "operand" && v.Operand != nil {
			if v.Outcome == gate.Deny {
				code = operandExit(name)
			}
			return voice(name, *v.Operand, v.Refusal.Reason), code
		}
		return name + ": Permission denied\n", code
	case gate.Hidden:
		if len(v.HiddenOperands) > 0 {
			return voice(name, v.HiddenOperands[0], "No such file or directory"), operandExit(name)
		}
	}
	return "", 0
}

// voice renders a failing operand in the command's GNU voice (G-7.3).
func voice(name string, op gate.Operand, msg string) string {
	if v, ok := builtinVoices[name]; ok {
		return v(op.Arg, msg)
	}
	if u := utils.Lookup(name); u != nil {
		kind := utils.Read
		if op.Write {
			kind = utils.Write
		}
		return u.RenderOperandVoice(kind, op.Arg, msg)
	}
	return name + ": " + op.Arg + ": " + msg + "\n"
}

func operandExit(name string) int {
	if u := utils.Lookup(name); u != nil && u.OperandExit != 0 {
		return u.OperandExit
	}
	return 1
}

// grantKey names what an allow-for-session of this refusal covers: the rule
// that asked; for a policy, which of its questions (hook and reason), so one
// answer does not cover every question a program can raise.
func grantKey(r *gate.Refusal) string {
	if strings.HasPrefix(r.Policy, "profile:") || strings.HasPrefix(r.Policy, "mount:") || r.Policy == "allow" {
		return r.Policy + "|" + r.Rule
	}
	return r.Policy + "|" + r.Rule + "|" + r.Hook + "|" + r.Reason
}

func questionFor(s *Shell, ls *lineState, place string, argv []string, cmd gate.Command, r *gate.Refusal) Question {
	paths := make([]string, 0, len(cmd.Operands))
	for _, o := range cmd.Operands {
		paths = append(paths, o.Path)
	}
	return Question{
		SessionID: s.cfg.SessionID,
		Line:      ls.text,
		Place:     place,
		Command:   strings.Join(argv, " "),
		Argv:      argv,
		Cwd:       cmd.Cwd,
		Paths:     paths,
		Refusal:   *r,
		GrantKey:  grantKey(r),
	}
}

// settle finds or obtains an answer for an ask at the execution gate. It
// returns the claim's standing, or a halt error when the ask must wait.
func (s *Shell) settle(ctx context.Context, ls *lineState, q Question) (Standing, *gate.Refusal, error) {
	key := q.Place + "\x00" + q.GrantKey
	ls.mu.Lock()
	c, ok := ls.claims[key]
	ls.mu.Unlock()
	if ok {
		return c.Standing, refusalFromClaim(q, c), nil
	}
	host := s.cfg.Host
	if host != nil {
		if c, ok := host.Lookup(ctx, q); ok {
			ls.mu.Lock()
			ls.claims[key] = c
			ls.mu.Unlock()
			return c.Standing, refusalFromClaim(q, c), nil
		}
	}
	if host == nil {
		r := q.Refusal
		r.Status = "pending"
		return NoAnswer, &r, nil
	}
	reply, err := host.Ask(ctx, q)
	if err != nil {
		return NoAnswer, nil, err
	}
	switch reply.Outcome {
	case "allow":
		ls.mu.Lock()
		ls.claims[key] = reply.Claim
		ls.mu.Unlock()
		return Allowed, nil, nil
	case "deny":
		// Not claimed: the refusal stands for the retry (G-10.4).
		c := reply.Claim
		c.Standing = Refused
		c.AskID = reply.AskID
		return Refused, refusalFromClaim(q, c), nil
	}
	r := q.Refusal
	r.AskID = reply.AskID
	r.Status = "pending"
	return NoAnswer, &r, nil
}

// refusalFromClaim is the deny record a deny-once answer yields (G-9.5).
func refusalFromClaim(q Question, c Claim) *gate.Refusal {
	if c.Standing != Refused {
		return nil
	}
	// A host's deny refuses the whole command (G-9.5).
	r := q.Refusal
	r.Kind = "deny"
	r.Scope = "command"
	r.AskID = c.AskID
	r.Status = ""
	return &r
}

// admit is the execution gate for one command at place (G-9.4).
func (s *Shell) admit(ctx context.Context, ls *lineState, place string, argv []string, dir string, extra []gate.Operand) admission {
	if ls != nil {
		if n := ls.commands.Add(1); n > int64(s.limits.Commands) {
			return admission{halt: &errHalt{125, "gatehouse: line exceeded the limit of " + itoa(s.limits.Commands) + " commands"}}
		}
	}
	name := argv[0]
	fileOp := isFileOp(ctx)
	if !fileOp && !s.installed(name) {
		return admission{exit: 127, stderr: name + ": command not found\n"}
	}
	cmd := s.command(ls.lineText(), argv, dir, extra)
	cmd.FileOp = fileOp
	v := s.cfg.Profile.Judge(cmd)
	switch v.Outcome {
	case gate.NotFound:
		text, code := refusalText(v, argv)
		return admission{exit: code, stderr: text}
	case gate.Deny:
		if v.Refusal.Scope == "command" {
			if ls != nil {
				ls.addRefusal(*v.Refusal)
			}
			text, code := refusalText(v, argv)
			return admission{exit: code, stderr: text}
		}
		// Operand denies: the command runs; each denied operand fails where
		// it is touched (G-4.10).
		if ls != nil {
			for _, or := range v.OperandRefusals {
				ls.addRefusal(*or.Refusal)
			}
		}
		return admission{run: true, scope: &gate.OpScope{Refused: v.OperandRefusals, Command: &cmd, Cleared: v.Cleared}}
	case gate.Ask:
		if ls == nil {
			return admission{exit: 126, stderr: "gatehouse: no line to ask on\n"}
		}
		q := questionFor(s, ls, place, argv, cmd, v.Refusal)
		standing, ref, err := s.settle(ctx, ls, q)
		if err != nil {
			return admission{halt: err}
		}
		switch standing {
		case Allowed:
			ls.grantPaths(q.Paths)
			return admission{run: true, scope: &gate.OpScope{Granted: true, Command: &cmd, Cleared: v.Cleared}}
		case Refused:
			ls.addRefusal(*ref)
			return admission{exit: 126, stderr: argv[0] + ": Permission denied\n"}
		}
		// Unanswered: the whole line ends here with the pending record.
		ls.addRefusal(*ref)
		ls.mu.Lock()
		ls.halted = ref
		ls.waiting = true
		ls.mu.Unlock()
		text, _ := refusalText(v, argv)
		return admission{halt: &errHalt{126, strings.TrimSuffix(text, "\n")}}
	}
	return admission{run: true, scope: &gate.OpScope{Command: &cmd, Cleared: v.Cleared}}
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
