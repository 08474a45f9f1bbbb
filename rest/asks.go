package rest

import (
	"context"
	"errors"
	"net"
	"net/http"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// listAsks is GET /v1/asks: the pending queue, oldest first, or every
// decision with all=1; session_id narrows it to one session.
func (s *Server) listAsks(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	all, ok := parseFlag(q.Get("all"))
	if !ok {
		writeError(w, http.StatusBadRequest, `all must be 1, true, 0 or false`)
		return
	}
	var recs []decisions.Record
	var err error
	if all {
		recs, err = s.ledger.List(r.Context(), q.Get("session_id"))
	} else {
		recs, err = s.ledger.Pending(r.Context(), q.Get("session_id"))
	}
	if err != nil {
		s.internalError(w, err)
		return
	}
	if recs == nil {
		recs = []decisions.Record{} // an empty queue is [], not null
	}
	writeJSON(w, http.StatusOK, recs)
}

// parseFlag reads a boolean query parameter; absent is false.
func parseFlag(v string) (value, ok bool) {
	switch v {
	case "", "0", "false":
		return false, true
	case "1", "true":
		return true, true
	}
	return false, false
}

// getAsk is GET /v1/asks/{id}.
func (s *Server) getAsk(w http.ResponseWriter, r *http.Request) {
	rec, err := s.ledger.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		s.decisionError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, rec)
}

// answerBody is what POST /v1/asks/{id}/allow and /deny take.
type answerBody struct {
	Scope string `json:"scope"`
	Note  string `json:"note"`
}

// answerAsk answers one ask with outcome; the settled record comes back.
func (s *Server) answerAsk(outcome string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body answerBody
		if err := s.readBody(w, r, &body, true); err != nil {
			writeBodyError(w, err)
			return
		}
		// The answer is one transaction in the ledger; once it commits it is
		// the host's word whether or not this client is still listening.
		ctx := context.WithoutCancel(r.Context())
		rec, err := s.ledger.Answer(ctx, r.PathValue("id"), decisions.Answer{
			Outcome: outcome, Scope: body.Scope, Note: body.Note, By: answeredBy(r),
		})
		if errors.Is(err, decisions.ErrAlreadyAnswered) {
			// Tell the losing host what the winner decided.
			if settled, gerr := s.ledger.Get(ctx, r.PathValue("id")); gerr == nil {
				writeJSON(w, http.StatusConflict, errorBody{Error: "already answered", Ask: &settled})
				return
			}
		}
		if err != nil {
			s.decisionError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, rec)
	}
}

// Amended is what POST /v1/asks/{id}/amend returns: the allowed record and
// the change written to the workspace document.
type Amended struct {
	Ask       decisions.Record `json:"ask"`
	Amendment AmendmentView    `json:"amendment"`
}

// AmendmentView is an amendment as REST shows it.
type AmendmentView struct {
	Document string `json:"document"` // absolute path of the amended document
	Rule     string `json:"rule"`     // FILE:LINE:COL of the ask rule amended
	Diff     string `json:"diff"`     // unified diff of the document
	After    string `json:"after"`    // "run", or why the command would still not run
}

// amendAsk writes the exception for exactly the asked command into the
// document the ask's session was opened from (core.ProposeAmendment), then
// allows the ask once. A document that cannot be amended, or changed on
// disk since the daemon loaded it, leaves the ask waiting.
func (s *Server) amendAsk(w http.ResponseWriter, r *http.Request) {
	var body answerBody
	if err := s.readBody(w, r, &body, true); err != nil {
		writeBodyError(w, err)
		return
	}
	ctx := context.WithoutCancel(r.Context())
	id := r.PathValue("id")
	rec, err := s.ledger.Get(ctx, id)
	if err == nil && rec.State() != decisions.StatePending {
		err = decisions.ErrAlreadyAnswered
	}
	if err != nil {
		s.decisionError(w, err)
		return
	}
	a, err := s.ws.ProposeAmendment(ctx, rec)
	if err == nil {
		err = s.ws.ApplyAmendment(a)
	}
	switch {
	case errors.Is(err, core.ErrDocumentChanged):
		writeError(w, http.StatusPreconditionFailed, err.Error())
		return
	case errors.Is(err, core.ErrNoAmendment):
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	case err != nil:
		s.internalError(w, err)
		return
	}
	rec, err = s.ledger.Answer(ctx, id, decisions.Answer{
		Outcome: decisions.Allow, Scope: decisions.Once, Note: body.Note, By: answeredBy(r),
	})
	if err != nil {
		s.decisionError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, Amended{Ask: rec, Amendment: AmendmentView{Document: a.Document, Rule: a.Rule, Diff: a.Diff, After: a.After}})
}

// answeredBy names a REST answer in the record: "rest:" and the address it
// came from, so the history says which host decided.
func answeredBy(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil || host == "" {
		return "rest"
	}
	return "rest:" + host
}

// decisionError maps the ledger's errors to G-10.6's status codes.
func (s *Server) decisionError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, decisions.ErrNotFound):
		writeError(w, http.StatusNotFound, err.Error())
	case errors.Is(err, decisions.ErrAlreadyAnswered):
		writeError(w, http.StatusConflict, "already answered")
	case errors.Is(err, decisions.ErrInvalid):
		writeError(w, http.StatusUnprocessableEntity, err.Error())
	default:
		s.internalError(w, err)
	}
}

// internalError reports a failure that is the daemon's, not the caller's.
func (s *Server) internalError(w http.ResponseWriter, err error) {
	s.logger.Printf("gatehouse rest: %v", err)
	writeError(w, http.StatusInternalServerError, err.Error())
}
