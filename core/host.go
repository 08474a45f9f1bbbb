package core

import (
	"context"
	"errors"
	"os"
	"runtime/debug"
	"strconv"

	"gatehouse/core/decisions"
	"gatehouse/core/shell"
	"gatehouse/store"
)

// ledgerHost settles a session's questions on the workspace's ledger,
// through the inline handler when there is one (shell.Host).
type ledgerHost struct {
	ws      *Workspace
	session *Session
}

// claimToken is what a line holds for a once grant or refusal it claimed:
// the grant and the name it was claimed under, to spend or hand it back.
type claimToken struct {
	grant    int64
	claimant string
}

// claimant names one claim in the ledger: unique, so that only this line
// can hand it back, and saying which process took it, for whoever reads
// the ledger after a crash.
func claimant() string {
	return "pid " + strconv.Itoa(os.Getpid()) + " claim " + store.NewID()
}

// find looks for a once grant or refusal given for exactly q: its session,
// line, place and facts (G-9.5). With claim, it is claimed in the ledger in
// one atomic step, so that no other line, in this process or another, can
// use it (G-9.7).
func (h *ledgerHost) find(ctx context.Context, q shell.Question, claim bool) (shell.Claim, bool) {
	lq := decisions.Question{SessionID: q.SessionID, Line: q.Line, Place: q.Place, Facts: q.Facts}
	var g decisions.Grant
	var ok bool
	var err error
	name := ""
	if claim {
		name = claimant()
		g, ok, err = h.ws.ledger.Claim(ctx, lq, name)
	} else {
		g, ok, err = h.ws.ledger.FindGrant(ctx, lq)
	}
	if err != nil || !ok {
		return shell.Claim{}, false
	}
	c := shell.Claim{Standing: shell.Allowed, AskID: g.AskID}
	if g.Kind == decisions.GrantDeny {
		c.Standing = shell.Denied
	}
	// A deny's refusal, and the result of a line an allow let through,
	// carry the human's note to the agent (G-9.5). Only a claim pays for
	// the look-up; a record that cannot be read stands all the same,
	// without its note.
	if claim || c.Standing == shell.Denied {
		if rec, err := h.ws.ledger.Get(context.WithoutCancel(ctx), g.AskID); err == nil {
			c.Note = rec.Note
		}
	}
	if claim {
		c.Token = claimToken{grant: g.ID, claimant: name}
	}
	return c, true
}

// Settled returns the rules' keys an allow for session settles (G-9.5). A
// ledger that cannot say settles nothing: the command asks.
func (h *ledgerHost) Settled(ctx context.Context, sessionID string, keys []string) []string {
	held, err := h.ws.ledger.SessionGrants(ctx, sessionID, keys)
	if err != nil {
		return nil
	}
	return held
}

func (h *ledgerHost) Lookup(ctx context.Context, q shell.Question) (shell.Claim, bool) {
	return h.find(ctx, q, true)
}

func (h *ledgerHost) Peek(ctx context.Context, q shell.Question) (shell.Claim, bool) {
	return h.find(ctx, q, false)
}

func (h *ledgerHost) Inline(ctx context.Context) bool {
	return h.ws.opts.onAsk != nil && waitsForAnswers(ctx)
}

// recordOf is the ledger record of a question: what the human is shown,
// every rule it names, and the facts its answer is bound to.
func recordOf(q shell.Question, agent string) decisions.Record {
	rules := make([]decisions.AskRule, len(q.Rules))
	for i, r := range q.Rules {
		paths := r.Paths
		if paths == nil {
			paths = []string{}
		}
		rules[i] = decisions.AskRule{Reason: r.Reason, Rule: r.Rule, Policy: r.Policy, Paths: paths, Key: r.Key}
	}
	return decisions.Record{
		SessionID: q.SessionID,
		AgentID:   agent,
		Command:   q.Command,
		Argv:      q.Argv,
		Cwd:       q.Cwd,
		Paths:     q.Paths,
		Reason:    q.Refusal.Reason,
		Rule:      q.Refusal.Rule,
		Policy:    q.Refusal.Policy,
		Rules:     rules,
		Line:      q.Line,
		Place:     q.Place,
		Facts:     q.Facts,
	}
}

// Ask raises the question (or finds it pending) and, with an inline handler,
// waits for an answer from the handler or from any other host (G-10.4). A
// question of preflight is not waited for here when the session waits
// outside the line (see shell.InPreflight and Session.run): it is handed
// over and the line is refused pending.
func (h *ledgerHost) Ask(ctx context.Context, q shell.Question) (shell.Reply, error) {
	rec, err := h.ws.ledger.Raise(ctx, recordOf(q, h.session.AgentID()))
	if err != nil {
		return shell.Reply{}, err
	}
	if h.ws.opts.onAsk == nil || !waitsForAnswers(ctx) {
		return shell.Reply{Outcome: "pending", AskID: rec.ID}, nil
	}
	if d, ok := ctx.Value(deferredKey{}).(*deferredAsk); ok && shell.InPreflight(ctx) {
		d.rec, d.ok = rec, true
		return shell.Reply{Outcome: "pending", AskID: rec.ID}, nil
	}
	r, answered := h.session.await(ctx, rec, q.Line)
	if !answered {
		return shell.Reply{Outcome: "pending", AskID: rec.ID}, nil
	}
	if r.Outcome == decisions.Allow && r.Scope == decisions.Session {
		// The rules are settled for the session: nothing to claim.
		return shell.Reply{Outcome: r.Outcome, AskID: r.ID, Note: r.Note, Claim: shell.Claim{Standing: shell.Allowed, AskID: r.ID}, Session: true}, nil
	}
	// An allow is consumed by the line that asked; a refusal given here
	// stands for the agent's immediate retry (G-10.4), so this line does
	// not claim it.
	c, ok := h.find(context.WithoutCancel(ctx), q, r.Outcome == decisions.Allow)
	if !ok {
		// The answer stands in the ledger but its grant is taken (a
		// concurrent line): ask again later.
		return shell.Reply{Outcome: "pending", AskID: r.ID}, nil
	}
	return shell.Reply{Outcome: r.Outcome, AskID: r.ID, Note: r.Note, Claim: c}, nil
}

// await waits for an answer to rec, from the inline handler or from any
// host writing to the ledger, for at most the workspace's ask_timeout. It
// returns the settled record, or answered false when none came: after
// ask_timeout the ask stays pending (G-10.4); when ctx ended (the line was
// cancelled or ran out of time) nobody waits for the answer any more, so
// the ask leaves the queue saying why (G-13.5). While it waits the session
// is "waiting", watchers get EventWaiting, and a caller that asked with
// OnWaiting is told which ask its line waits for.
func (s *Session) await(ctx context.Context, rec decisions.Record, line string) (decisions.Record, bool) {
	ws := s.ws
	wctx := ctx
	var cancel context.CancelFunc
	if t := ws.cfg.AskTimeout; t > 0 {
		wctx, cancel = context.WithTimeout(ctx, t)
	} else {
		wctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	s.mu.Lock()
	s.waiting++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.waiting--
		s.mu.Unlock()
	}()
	ws.emit(EventWaiting, s, line, nil, rec.ID)
	if notify, ok := ctx.Value(waitingKey{}).(func(decisions.Record, bool)); ok {
		notify(rec, true)
		defer notify(rec, false)
	}
	settled := make(chan decisions.Record, 2)
	go func() {
		// The handler is the host's code; a panic in it is no answer, and
		// must not take the process down (G-12.3).
		defer func() {
			if p := recover(); p != nil {
				ws.logger().Printf("internal error (panic) in the ask handler for ask %s: %v\n%s", rec.ID, p, debug.Stack())
			}
		}()
		ans, err := ws.opts.onAsk(wctx, rec)
		if err != nil || ans.Outcome == "" {
			return
		}
		if ans.By == "" {
			ans.By = "handler"
		}
		r, err := ws.ledger.Answer(context.WithoutCancel(wctx), rec.ID, ans)
		if errors.Is(err, decisions.ErrAlreadyAnswered) {
			r, err = ws.ledger.Get(context.WithoutCancel(wctx), rec.ID)
		}
		if err == nil {
			settled <- r
		}
	}()
	go func() {
		if r, err := ws.ledger.Wait(wctx, rec.ID); err == nil {
			settled <- r
		}
	}()
	select {
	case r := <-settled:
		return r, true
	case <-wctx.Done():
		if err := ctx.Err(); err != nil {
			why := "cancelled" // shown as withdrawn (store.StateWithdrawn)
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
				why = store.StateTimedOut
			}
			_ = ws.ledger.Close(context.WithoutCancel(ctx), rec.ID, why)
		}
		return decisions.Record{}, false
	}
}

// Spend spends the grants a line claimed, when it and its jobs ended. A
// spend that fails leaves the grants claimed: used, never offered again.
func (h *ledgerHost) Spend(claims []shell.Claim) {
	var ids []int64
	for _, c := range claims {
		if t, ok := c.Token.(claimToken); ok {
			ids = append(ids, t.grant)
		}
	}
	if len(ids) == 0 {
		return
	}
	_ = h.ws.ledger.Spend(context.Background(), ids...)
}

// Release hands back the grants a line claimed and did not use, because it
// stopped on a question still waiting (G-9.7). A release that fails leaves
// them claimed, so the retry asks again: never more than once.
func (h *ledgerHost) Release(claims []shell.Claim) {
	for _, c := range claims {
		if t, ok := c.Token.(claimToken); ok {
			_ = h.ws.ledger.Release(context.Background(), t.claimant, t.grant)
		}
	}
}
