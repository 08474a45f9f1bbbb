package shell

import (
	"context"
	"errors"
	"runtime/debug"

	"gatehouse/core/gate"
)

// Explanation is the gate's dry-run word on one command of a line (G-11.1).
type Explanation struct {
	Command  string        `json:"command"`
	Argv     []string      `json:"argv"`
	Place    string        `json:"place"`
	Outcome  gate.Outcome  `json:"outcome"`
	Reason   string        `json:"reason,omitempty"`
	Rule     string        `json:"rule,omitempty"`
	Policy   string        `json:"policy,omitempty"`
	Operand  string        `json:"operand,omitempty"`
	ExitCode int           `json:"exit_code"`
	Stderr   string        `json:"stderr"`
	Refusal  *gate.Refusal `json:"refusal"`
}

// Explain judges every command of line without running it: no asks raised,
// no grants consumed, no file touched (G-11.3). Stderr and exit code are the
// ones the run would give, from the same rendering (G-11.1).
func (s *Shell) Explain(ctx context.Context, line string) (exps []Explanation, err error) {
	// A policy program or coded policy that panics must not take the
	// process down from a dry run either (G-12.3).
	defer func() {
		if p := recover(); p != nil {
			s.panicked(ctx, "explain", p, debug.Stack())
			exps, err = nil, errors.New("internal error while explaining the line")
		}
	}()
	file, err := s.readLine(line)
	if err != nil {
		return nil, err
	}
	s.rewriteProcSubst(file)
	s.rewriteEnvWrites(file)
	cmds := s.collect(file, s.Cwd())
	out := make([]Explanation, 0, len(cmds))
	ls := &lineState{sh: s, text: line}
	for _, c := range cmds {
		v := s.judgeStatic(line, c)
		e := Explanation{Command: c.spelled, Argv: c.argv, Place: c.place, Outcome: v.Outcome, Refusal: v.Refusal}
		if c.dynamic {
			e.Argv = nil
		}
		if v.Refusal != nil {
			e.Reason, e.Rule, e.Policy = v.Refusal.Reason, v.Refusal.Rule, v.Refusal.Policy
			e.Operand = v.Refusal.Path
		}
		switch v.Outcome {
		case gate.NotFound, gate.Deny, gate.Ask:
			e.Stderr, e.ExitCode = refusalText(v, c.argv)
			if v.Outcome == gate.Deny && v.Refusal != nil && v.Refusal.Scope == "command" {
				e.ExitCode = 126
			}
		case gate.Hidden:
			e.Stderr, e.ExitCode = refusalText(v, c.argv)
			e.Reason, e.Rule = v.HideReason, v.HideRule
			if len(v.HiddenOperands) > 0 {
				e.Operand = v.HiddenOperands[0].Path
			}
		}
		if v.Outcome == gate.Ask && s.cfg.Host != nil {
			q := s.narrow(ctx, ls, s.question(ls, c.place, c.argv, s.command(line, c.argv, c.dir, c.extra), v))
			claim, ok := Claim{Standing: Allowed}, len(q.Rules) == 0
			if !ok {
				claim, ok = s.cfg.Host.Peek(ctx, q)
			}
			if ok {
				if claim.Standing == Allowed {
					e.Outcome, e.Stderr, e.ExitCode = gate.Granted, "", 0
				} else {
					e.Outcome = gate.Deny
				}
			}
		}
		out = append(out, e)
	}
	return out, nil
}
