// Package rest is gatehouse's HTTP door (G-10.6): the daemon behind
// `gatehouse serve`. It serves two kinds of caller on one listener:
//
//   - hosts, who read and answer asks and follow live events. Every host
//     route requires `Authorization: Bearer TOKEN`, the token kept in a 0600
//     file beside the ledger (see TokenPath).
//   - agents, who create sessions, run lines and explain them. Agent routes
//     take no token and no route of theirs answers anything, so an agent
//     never needs the host token and cannot approve its own asks. Agents
//     get sessions of the profiles the daemon opens to them only (see
//     WithAgentProfiles); any other session needs the token.
//
// Every request first passes the checks of hygiene.go: a Host the daemon
// serves, no foreign browser origin, JSON bodies of a bounded size.
//
// A line that asks holds its execute request open until a host answers
// (the workspace must be built with core.OnAsk(rest.AwaitAnswer) for that),
// unless the request says `?wait=false`.
package rest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"gatehouse/core"
	"gatehouse/core/decisions"
	"gatehouse/store"
)

// Defaults of the event stream; see WithHeartbeat and WithEventHistory.
const (
	defaultHeartbeat    = 15 * time.Second
	defaultEventHistory = 1024
)

// maxBodyBytes bounds a request body: the largest legitimate one is a
// command line, and nothing should make the daemon buffer megabytes.
const maxBodyBytes = 1 << 20

// shutdownGrace is how long Serve lets requests in flight finish after its
// context ends before cutting their connections (which cancels their lines).
const shutdownGrace = 5 * time.Second

// Server is the REST daemon's handler for one workspace. Build it with New,
// serve it with Serve (or mount it in any http.Server), and Close it when
// done to end its event streams.
type Server struct {
	ws     *core.Workspace
	ledger *decisions.Ledger
	token  string
	// tokens, when set, holds the hashes of the host tokens instead of
	// token (a ledger on a database server keeps them; see WithTokenKeeper).
	tokens store.HostTokens
	// sessionKey derives each session's capability token (sessiontokens.go).
	sessionKey []byte
	heartbeat  time.Duration
	logger     *log.Logger
	mux        *http.ServeMux
	events     *eventHub
	stop       context.CancelFunc
	hosts      hostsRef
	// agentProfiles are the profiles agents get without the token.
	agentProfiles map[string]bool
	// headerTimeout and bodyTimeout: see headerReadTimeout, bodyReadTimeout.
	headerTimeout, bodyTimeout time.Duration

	// resumeMu keeps two requests from reattaching the same ledger session
	// twice (two shells for one session would split its state).
	resumeMu sync.Mutex

	// inflight counts requests being handled, so Serve returns only after
	// the last one stopped touching the workspace.
	inflight sync.WaitGroup
}

// Option configures a Server.
type Option func(*settings)

type settings struct {
	token         string
	tokens        store.HostTokens
	heartbeat     time.Duration
	eventHistory  int
	logger        *log.Logger
	hosts         []string
	agentProfiles []string
	agentSet      bool
	// headerTimeout and bodyTimeout bound a request's arrival; tests
	// shorten them.
	headerTimeout, bodyTimeout time.Duration
}

// WithToken sets the bearer token hosts must present (see LoadOrCreateToken).
// Without it the server makes a random one that only Token reveals, so no
// server ever answers without a token.
func WithToken(token string) Option { return func(s *settings) { s.token = token } }

// WithTokenKeeper makes the server accept the host tokens k keeps, by
// their hashes, instead of one token it holds (G-10.7): the tokens of a
// ledger on a database server live in the ledger, so every daemon on it
// accepts the same ones and a rotation reaches them all at once.
func WithTokenKeeper(k store.HostTokens) Option { return func(s *settings) { s.tokens = k } }

// WithHeartbeat sets how often an idle event stream gets a comment line, so
// proxies and clients can tell a quiet stream from a dead one (default 15 s).
func WithHeartbeat(every time.Duration) Option {
	return func(s *settings) { s.heartbeat = every }
}

// WithEventHistory sets how many recent events are kept for clients that
// reconnect with Last-Event-ID (default 1024).
func WithEventHistory(n int) Option { return func(s *settings) { s.eventHistory = n } }

// WithLogger receives the server's own errors (default: discarded).
func WithLogger(l *log.Logger) Option { return func(s *settings) { s.logger = l } }

// WithHosts adds host names or addresses the daemon answers to, besides
// localhost and the loopback addresses, which it always serves; Serve adds
// its listener's address. A request for any other Host is refused with 421,
// which stops DNS rebinding (G-10.6). An unspecified address (0.0.0.0)
// admits every IP address, never a name.
func WithHosts(hosts ...string) Option {
	return func(s *settings) { s.hosts = append(s.hosts, hosts...) }
}

// WithAgentProfiles names the profiles agents may create sessions of, and
// run lines in, without the host token (`serve -p`). By default that is the
// workspace's default profile, if it names one. A session of any other
// profile, or an unrestricted one, needs the token (G-10.6).
func WithAgentProfiles(names ...string) Option {
	return func(s *settings) { s.agentProfiles, s.agentSet = append(s.agentProfiles, names...), true }
}

// AwaitAnswer is the inline ask handler of a workspace served over REST
// (core.OnAsk(rest.AwaitAnswer)). It gives no answer of its own: it only
// makes lines wait, so that an answer written to the ledger by any host
// (REST, CLI, console) releases them. It returns when the line stops
// waiting.
func AwaitAnswer(ctx context.Context, _ decisions.Record) (decisions.Answer, error) {
	<-ctx.Done()
	return decisions.Answer{}, ctx.Err()
}

// New returns the REST handler for ws and starts collecting its events.
func New(ws *core.Workspace, opts ...Option) *Server {
	cfg := settings{heartbeat: defaultHeartbeat, eventHistory: defaultEventHistory,
		headerTimeout: headerReadTimeout, bodyTimeout: bodyReadTimeout}
	for _, opt := range opts {
		opt(&cfg)
	}
	if cfg.token == "" {
		cfg.token = newToken()
	}
	if cfg.logger == nil {
		cfg.logger = log.New(io.Discard, "", 0)
	}
	if cfg.eventHistory < 1 {
		cfg.eventHistory = 1
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Server{
		ws:            ws,
		ledger:        ws.Decisions(),
		token:         cfg.token,
		tokens:        cfg.tokens,
		sessionKey:    newSessionKey(cfg.token),
		heartbeat:     cfg.heartbeat,
		logger:        cfg.logger,
		mux:           http.NewServeMux(),
		stop:          stop,
		agentProfiles: map[string]bool{},
		headerTimeout: cfg.headerTimeout,
		bodyTimeout:   cfg.bodyTimeout,
	}
	s.hosts.p.Store(&hostSet{names: map[string]bool{}})
	for _, h := range cfg.hosts {
		s.hosts.add(h)
	}
	if !cfg.agentSet {
		cfg.agentProfiles = []string{ws.Config().Default}
	}
	for _, name := range cfg.agentProfiles {
		if name != "" {
			s.agentProfiles[name] = true
		}
	}
	s.events = startEventHub(ctx, ws, cfg.eventHistory)
	for _, rt := range s.routes() {
		h := rt.handler
		if rt.hostOnly {
			h = s.requireToken(h)
		}
		s.mux.HandleFunc(rt.method+" "+rt.path, h)
	}
	return s
}

// route is one endpoint. hostOnly routes require the bearer token.
type route struct {
	method   string
	path     string
	hostOnly bool
	handler  http.HandlerFunc
}

// routes is the whole API; docs/openapi.yaml describes exactly these
// (openapi_test.go keeps the two in step).
func (s *Server) routes() []route {
	return []route{
		{"GET", "/v1/asks", true, s.listAsks},
		{"GET", "/v1/asks/{id}", true, s.getAsk},
		{"POST", "/v1/asks/{id}/allow", true, s.answerAsk(decisions.Allow)},
		{"POST", "/v1/asks/{id}/deny", true, s.answerAsk(decisions.Deny)},
		{"POST", "/v1/asks/{id}/amend", true, s.amendAsk},
		{"GET", "/v1/events", true, s.streamEvents},
		{"POST", "/v1/sessions", false, s.createSession},
		{"GET", "/v1/sessions", false, s.listSessions},
		{"POST", "/v1/sessions/{id}/execute", false, s.execute},
		{"POST", "/v1/sessions/{id}/explain", false, s.explain},
	}
}

// ServeHTTP routes one request that passes the daemon's hygiene checks.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.inflight.Add(1)
	defer s.inflight.Done()
	if !s.admit(w, r) {
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Token is the bearer token hosts must present, unless the server checks
// the tokens a ledger keeps (WithTokenKeeper), which it cannot reveal.
func (s *Server) Token() string { return s.token }

// Close ends every event stream and stops watching the workspace. Requests
// still running (executes waiting for answers) are not touched: their own
// contexts end them.
func (s *Server) Close() error {
	s.stop()
	s.events.wait()
	return nil
}

// Serve answers HTTP on ln until ctx ends, then shuts down: event streams
// end at once, other requests get a short grace period, and lines still
// waiting after it are cancelled (their asks leave the queue as
// "cancelled"). It returns nil after a shutdown that ctx asked for, once no
// request touches the workspace any more, so the caller may close it.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok {
		s.hosts.add(tcp.IP.String())
	}
	srv := &http.Server{
		Handler: s,
		// A client that trickles its header (slowloris) is cut off; a body
		// has its own bound (bodyReadTimeout). There is no ReadTimeout or
		// WriteTimeout: an execute waits for a human, an event stream
		// lasts, and Go cancels a request whose read deadline passes.
		ReadHeaderTimeout: s.headerTimeout,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          s.logger,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		srv.Close()
		s.Close()
		s.inflight.Wait()
		return err
	case <-ctx.Done():
	}
	s.Close()
	graceCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(graceCtx); err != nil {
		// Closing the connections cancels the requests' contexts, and with
		// them the lines still waiting for an answer.
		srv.Close()
	}
	err := <-served
	s.inflight.Wait()
	if !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func newToken() string {
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand documents it)
	return hex.EncodeToString(b[:])
}

// errorBody is every error response: {"error": "..."}; a 409 on an answer
// also carries the ask as the other host settled it.
type errorBody struct {
	Error string            `json:"error"`
	Ask   *decisions.Record `json:"ask,omitempty"`
}

// writeJSON sends v with status. HTML escaping is off: command lines are
// full of < > & and clients read them as data, not markup.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{Error: msg})
}

// errBadBody is a body that is not the JSON object the route takes.
var errBadBody = errors.New("malformed body")

// readBody decodes a JSON object into v, refusing unknown fields, anything
// but one object, and oversized bodies (errTooLarge). An empty body reads
// as {} when emptyOK. The body must arrive within bodyReadTimeout.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, v any, emptyOK bool) error {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(s.bodyTimeout))
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err == nil {
		// The rest of the request's life (a long execute) has no deadline.
		_ = rc.SetReadDeadline(time.Time{})
	} else {
		// A body that did not arrive whole ends its connection.
		w.Header().Set("Connection", "close")
	}
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return errTooLarge
	}
	if err != nil {
		return fmt.Errorf("%w: %v", errBadBody, err)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 && emptyOK {
		return nil
	}
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return fmt.Errorf("%w: want a JSON object", errBadBody)
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", errBadBody, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: data after the JSON object", errBadBody)
	}
	return nil
}
