package rest

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// sessionJSON is a session as G-10.6 shows it: these five fields, and
// the session's token in the answer to the request that created it only.
type sessionJSON struct {
	ID        string    `json:"id"`
	AgentID   string    `json:"agent_id"`
	Profile   string    `json:"profile"`
	Cwd       string    `json:"cwd"`
	CreatedAt time.Time `json:"created_at"`
	// Token is the session's capability: every later request about the
	// session must present it as its bearer token.
	Token string `json:"token,omitempty"`
}

func sessionOf(row decisions.SessionRow) sessionJSON {
	return sessionJSON{ID: row.ID, AgentID: row.AgentID, Profile: row.Profile, Cwd: row.Cwd, CreatedAt: row.CreatedAt}
}

// createSessionBody is what POST /v1/sessions takes. An empty profile
// means the workspace's default profile (G-2.2).
type createSessionBody struct {
	AgentID string `json:"agent_id"`
	Profile string `json:"profile"`
}

// createSession is POST /v1/sessions: 201 with the new session. Agents get
// the profiles the daemon opens to them; any other needs the token.
func (s *Server) createSession(w http.ResponseWriter, r *http.Request) {
	var body createSessionBody
	if err := s.readBody(w, r, &body, false); err != nil {
		writeBodyError(w, err)
		return
	}
	if body.AgentID == "" {
		writeError(w, http.StatusBadRequest, "agent_id is required")
		return
	}
	profile := body.Profile
	if profile == "" {
		profile = s.ws.Config().Default
	}
	if profile != "" && !s.ws.HasProfile(profile) {
		// The workspace's error names the known profiles (G-2.4).
		_, err := s.ws.CreateSession(body.AgentID, core.Profile(profile))
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	if !s.mayUse(w, r, profile) {
		return
	}
	sess, err := s.ws.CreateSession(body.AgentID, core.Profile(body.Profile))
	switch {
	case err != nil && body.Profile != "" && !slices.Contains(s.ws.ProfileNames(), body.Profile):
		// The workspace's error names the known profiles (G-2.4).
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	case err != nil:
		s.internalError(w, err)
		return
	}
	key, err := s.currentSessionKey(r.Context())
	if err != nil {
		s.internalError(w, err)
		return
	}
	created := sessionOf(sess.Row())
	created.Token = sessionToken(key, sess.ID())
	w.Header().Set("Location", "/v1/sessions/"+sess.ID())
	writeJSON(w, http.StatusCreated, created)
}

// listSessions is GET /v1/sessions: the sessions this daemon hosts (created
// here, or resumed here by an execute or explain), oldest first. Agents are
// not told apart by anything but their sessions' tokens, so an agent's
// listing holds the one session whose token it presents, and none without
// one: no agent learns another's sessions, their cwd or their agent names.
func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	live := s.ws.Sessions()
	host := s.hasToken(r)
	own, owns := s.heldSessionID(r)
	if !host && !owns && r.Header.Get("Authorization") != "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="gatehouse"`)
		writeError(w, http.StatusUnauthorized, "wrong token")
		return
	}
	out := make([]sessionJSON, 0, len(live))
	for _, sess := range live {
		if host || (owns && sess.ID() == own && s.agentProfiles[sess.ProfileName()]) {
			out = append(out, sessionOf(sess.Row()))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// lineBody is what execute and explain take.
type lineBody struct {
	Line *string `json:"line"`
}

// readLine reads {"line": "..."}; an empty line is a line (it runs
// nothing), a missing one is a mistake.
func (s *Server) readLine(w http.ResponseWriter, r *http.Request) (string, bool) {
	var body lineBody
	if err := s.readBody(w, r, &body, false); err != nil {
		writeBodyError(w, err)
		return "", false
	}
	if body.Line == nil {
		writeError(w, http.StatusBadRequest, "line is required")
		return "", false
	}
	return *body.Line, true
}

// execute is POST /v1/sessions/{id}/execute: runs a line and returns its
// result (G-7.6). A line that asks keeps the request open until a host
// answers, unless wait=false, which returns the pending refusal at once.
// A client that hangs up cancels its line, and the line's open ask leaves
// the queue as "cancelled".
func (s *Server) execute(w http.ResponseWriter, r *http.Request) {
	wait, ok := parseFlag(r.URL.Query().Get("wait"))
	if r.URL.Query().Get("wait") == "" {
		wait = true
	}
	if !ok {
		writeError(w, http.StatusBadRequest, "wait must be true, false, 1 or 0")
		return
	}
	sess, ok := s.session(w, r)
	if !ok {
		return
	}
	line, ok := s.readLine(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	if !wait {
		ctx = core.NoWait(ctx)
	}
	writeJSON(w, http.StatusOK, sess.Execute(ctx, line))
}

// explain is POST /v1/sessions/{id}/explain: the gate's word on every
// command of a line, without running it (G-11).
func (s *Server) explain(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.session(w, r)
	if !ok {
		return
	}
	line, ok := s.readLine(w, r)
	if !ok {
		return
	}
	exps, err := sess.ExplainForAgent(line)
	if err != nil {
		// The line does not parse: the caller's mistake.
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	if exps == nil {
		exps = []core.Explanation{}
	}
	writeJSON(w, http.StatusOK, exps)
}

// session finds the request's session: live in this daemon, or kept in the
// ledger by an earlier run (sessions outlive the process, G-2.3), in which
// case it is resumed here with its profile and last cwd. A request must
// present the session's own token (the one its creation returned) or the
// host token, so that agents of one profile stay out of each other's
// sessions; a session whose profile is not open to agents needs the host
// token, whoever created it. Without either token the request is refused
// before the session is looked up, with one answer whether the id names a
// live session, a ledger session, a session of a closed profile or
// nothing: a guessed or leaked id tells an agent nothing (G-10.6).
func (s *Server) session(w http.ResponseWriter, r *http.Request) (*core.Session, bool) {
	id := r.PathValue("id")
	if !s.hasToken(r) && !s.holdsSession(r, id) {
		refuseSession(w, r)
		return nil, false
	}
	if sess, ok := s.ws.Session(id); ok {
		if !s.mayUse(w, r, sess.ProfileName()) {
			return nil, false
		}
		return sess, true
	}
	row, err := s.ledger.GetSession(r.Context(), id)
	switch {
	case errors.Is(err, decisions.ErrNotFound):
		writeError(w, http.StatusNotFound, "session "+id+" not found")
		return nil, false
	case err != nil:
		s.internalError(w, err)
		return nil, false
	}
	if !s.mayUse(w, r, row.Profile) {
		return nil, false
	}
	s.resumeMu.Lock()
	sess, err := s.ws.ResumeSession(id)
	s.resumeMu.Unlock()
	switch {
	case errors.Is(err, decisions.ErrNotFound):
		writeError(w, http.StatusNotFound, "session "+id+" not found")
		return nil, false
	case err != nil:
		s.internalError(w, err)
		return nil, false
	}
	return sess, true
}

// refuseSession answers a session-scoped request that presents neither
// the session's token nor the host token: 401, with a body that depends on
// the request's Authorization alone, never on the session.
func refuseSession(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="gatehouse"`)
	if r.Header.Get("Authorization") == "" {
		writeError(w, http.StatusUnauthorized, "missing session token: send Authorization: Bearer TOKEN, with the token POST /v1/sessions returned for this session")
		return
	}
	writeError(w, http.StatusUnauthorized, "wrong token: a session takes the token POST /v1/sessions returned for it, and no other session's")
}

// mayUse lets a request use a session of profile ("" = unrestricted): an
// agent may use the profiles the daemon opens to agents, a host with the
// token any. It writes the refusal: 401 for a wrong token, else 403.
func (s *Server) mayUse(w http.ResponseWriter, r *http.Request, profile string) bool {
	if s.agentProfiles[profile] || s.hasToken(r) {
		return true
	}
	what := "an unrestricted session"
	if profile != "" {
		what = "profile " + profile
	}
	if r.Header.Get("Authorization") != "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="gatehouse"`)
		writeError(w, http.StatusUnauthorized, "wrong token: "+what+" is not open to agents, and needs the host token")
		return false
	}
	writeError(w, http.StatusForbidden, what+" is not open to agents (the daemon opens "+s.openProfiles()+"); it needs the host token")
	return false
}

// openProfiles lists the profiles open to agents, for messages.
func (s *Server) openProfiles() string {
	if len(s.agentProfiles) == 0 {
		return "no profile"
	}
	names := make([]string, 0, len(s.agentProfiles))
	for n := range s.agentProfiles {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
