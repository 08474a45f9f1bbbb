package core

import (
	"context"
	"errors"
	"sync"

	"gatehouse/core/decisions"
	"gatehouse/core/shell"
)

// claimBook keeps which once-grants a line in flight has claimed, so two
// lines judged at the same time never share one (G-9.7).
type claimBook struct {
	mu      sync.Mutex
	claimed map[int64]bool
}

func newClaimBook() *claimBook { return &claimBook{claimed: map[int64]bool{}} }

func (b *claimBook) take(id int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.claimed[id] {
		return false
	}
	b.claimed[id] = true
	return true
}

func (b *claimBook) held(id int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.claimed[id]
}

func (b *claimBook) drop(id int64) {
	b.mu.Lock()
	delete(b.claimed, id)
	b.mu.Unlock()
}

// ledgerHost settles a session's questions on the workspace's ledger,
// through the inline handler when there is one (shell.Host).
type ledgerHost struct {
	ws      *Workspace
	session *Session
}

func (h *ledgerHost) find(ctx context.Context, q shell.Question, claim bool) (shell.Claim, bool) {
	g, ok, err := h.ws.ledger.FindGrant(ctx, q.SessionID, q.Line, q.Place, q.GrantKey)
	if err != nil || !ok {
		return shell.Claim{}, false
	}
	c := shell.Claim{Standing: shell.Allowed, AskID: g.AskID}
	if g.Kind == decisions.GrantDeny {
		c.Standing = shell.Refused
	}
	if g.Kind == decisions.GrantSession {
		return c, true // never spent, never exclusive
	}
	if claim {
		if !h.ws.claims.take(g.ID) {
			return shell.Claim{}, false
		}
		c.Token = g.ID
	} else if h.ws.claims.held(g.ID) {
		return shell.Claim{}, false
	}
	return c, true
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

func recordOf(q shell.Question, agent string) decisions.Record {
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
		Line:      q.Line,
		Place:     q.Place,
	}
}

// Ask raises the question (or finds it pending) and, with an inline handler,
// waits for an answer from the handler or from any other host (G-10.4).
func (h *ledgerHost) Ask(ctx context.Context, q shell.Question) (shell.Reply, error) {
	rec, err := h.ws.ledger.Raise(ctx, recordOf(q, h.session.AgentID()), q.GrantKey)
	if err != nil {
		return shell.Reply{}, err
	}
	handler := h.ws.opts.onAsk
	if handler == nil || !waitsForAnswers(ctx) {
		return shell.Reply{Outcome: "pending", AskID: rec.ID}, nil
	}
	wctx := ctx
	var cancel context.CancelFunc
	if t := h.ws.cfg.AskTimeout; t > 0 {
		wctx, cancel = context.WithTimeout(ctx, t)
	} else {
		wctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	h.session.mu.Lock()
	h.session.waiting++
	h.session.mu.Unlock()
	defer func() {
		h.session.mu.Lock()
		h.session.waiting--
		h.session.mu.Unlock()
	}()
	h.ws.emit(EventWaiting, h.session, q.Line, nil, rec.ID)
	settled := make(chan decisions.Record, 2)
	go func() {
		ans, err := handler(wctx, rec)
		if err != nil || ans.Outcome == "" {
			return
		}
		if ans.By == "" {
			ans.By = "handler"
		}
		r, err := h.ws.ledger.Answer(context.WithoutCancel(wctx), rec.ID, ans)
		if errors.Is(err, decisions.ErrAlreadyAnswered) {
			r, err = h.ws.ledger.Get(context.WithoutCancel(wctx), rec.ID)
		}
		if err == nil {
			settled <- r
		}
	}()
	go func() {
		if r, err := h.ws.ledger.Wait(wctx, rec.ID); err == nil {
			settled <- r
		}
	}()
	select {
	case r := <-settled:
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
	case <-wctx.Done():
		if err := ctx.Err(); err != nil {
			// The line itself ended (cancelled or out of time): nobody waits
			// for this answer any more, so it leaves the queue saying why
			// (G-13.5). An ask_timeout alone leaves it pending (G-10.4).
			why := "cancelled"
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
				why = "timed out"
			}
			_ = h.ws.ledger.Close(context.WithoutCancel(ctx), rec.ID, why)
		}
		return shell.Reply{Outcome: "pending", AskID: rec.ID}, nil
	}
}

func (h *ledgerHost) Spend(claims []shell.Claim) {
	var ids []int64
	for _, c := range claims {
		if id, ok := c.Token.(int64); ok {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return
	}
	_ = h.ws.ledger.Spend(context.Background(), ids...)
	for _, id := range ids {
		h.ws.claims.drop(id)
	}
}

func (h *ledgerHost) Release(claims []shell.Claim) {
	for _, c := range claims {
		if id, ok := c.Token.(int64); ok {
			h.ws.claims.drop(id)
		}
	}
}
