// Package mcp puts a gatehouse workspace behind the Model Context Protocol,
// so that any MCP client (Claude Code, Codex, an SDK program) can work in
// an agent session whose every command line and file operation passes the
// gate (docs/agents.md).
//
// Each MCP client gets its own gatehouse session, created on its first tool
// call and bound to the server's profile for life (G-2.1). The tools offered
// are those a session of the profile can use: bash (one line in the
// session) and explain (a dry run) when the profile has commands, and the
// session's file operations read_file, write_file, edit_file and list_dir
// (G-11.6) unless the profile refuses them. Every result carries
// structured content (exit code, stdout, stderr, the refusal records) and
// is capped at limits.tool_output characters. A client's calls run
// concurrently: one waiting for a human's answer holds up no other. When a
// line asks, the call waits until a host answers (the console, `gatehouse
// allow`, REST) and then returns what the line did; meanwhile the client
// gets progress notifications naming the call's own ask, if it asked for
// them.
package mcp

import (
	"context"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

// DefaultProgressInterval is how often a waiting tool call reports
// progress to a client that sent a progress token.
const DefaultProgressInterval = 5 * time.Second

// defaultAgent names the agent of a client that gives no name of its own.
const defaultAgent = "mcp"

// Options configure a Server.
type Options struct {
	// Profile binds every session this server creates ("" = the
	// workspace's default profile, G-2.2).
	Profile string
	// Agent names the agent in the ledger and the console; "" takes the
	// client's own name from its initialize request.
	Agent string
	// ProgressInterval is how often a waiting call reports progress;
	// default DefaultProgressInterval.
	ProgressInterval time.Duration
	// Version is what the server reports as its version.
	Version string
}

// Server is the MCP face of one workspace.
type Server struct {
	ws   *core.Workspace
	opts Options
	sdk  *sdk.Server
	caps core.Capabilities
	// limit is the most characters one tool result carries
	// (limits.tool_output).
	limit int

	mu       sync.Mutex
	sessions map[*sdk.ServerSession]*core.Session
}

// New builds the MCP server of ws for sessions of opts.Profile; an
// unknown profile is an error. The workspace should have been built with
// core.OnAsk(mcp.AwaitAnswer) (or another waiting handler, such as the
// console's) for asked lines to wait for an answer; without one a line that
// asks returns at once with its pending refusal.
func New(ws *core.Workspace, opts Options) (*Server, error) {
	if opts.ProgressInterval <= 0 {
		opts.ProgressInterval = DefaultProgressInterval
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	caps, err := ws.Capabilities(opts.Profile)
	if err != nil {
		return nil, err
	}
	s := &Server{ws: ws, opts: opts, caps: caps, limit: ws.Config().Limits.WithDefaults().ToolOutput,
		sessions: map[*sdk.ServerSession]*core.Session{}}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "gatehouse", Title: "gatehouse gated workspace", Version: opts.Version},
		&sdk.ServerOptions{Instructions: instructions})
	s.addTools()
	return s, nil
}

// instructions tell the model how this server differs from a plain shell.
const instructions = `You work in a gatehouse workspace: a virtual filesystem and a bash shell in which every command and file operation passes an admission gate set by a human.
- A refused command says why on stderr, in the command's own voice (for example "cat: /vault/aws.token: credentials are never read by hand"), and a human's refusal may come with "note from reviewer: ..."; follow it, do not try to route around a refusal.
- "requires approval: REASON (ask ID)" means a human must answer; the call waits for the answer and then returns what the command did. If it returns still pending, retry the same line later.
- Paths you cannot see do not exist for you. Use explain to see what a line would do without running it.
- Long output is cut in the middle, with a marker saying how much and how to see the rest.`

// SDK returns the underlying go-sdk server, for transports of the caller's
// choosing (tests connect it to an in-memory transport).
func (s *Server) SDK() *sdk.Server { return s.sdk }

// Run serves one client over t (for example &sdk.StdioTransport{}) until the
// client leaves or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.sdk.Run(ctx, t)
}

// HTTPHandler serves MCP over streamable HTTP: every MCP session (every
// client) gets its own gatehouse session. Idle MCP sessions close after
// idle; 0 keeps them until the client deletes them.
func (s *Server) HTTPHandler(idle time.Duration) http.Handler {
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk },
		&sdk.StreamableHTTPOptions{SessionTimeout: idle})
}

// Close ends every client's MCP session: their waiting calls end, and the
// asks those lines put leave the queue as withdrawn.
func (s *Server) Close() {
	for ss := range s.sdk.Sessions() {
		ss.Close()
	}
}

// AwaitAnswer is the inline ask handler of a workspace served over MCP with
// no console (core.OnAsk(mcp.AwaitAnswer)). It gives no answer of its own:
// it only makes lines wait, so that an answer written to the ledger by any
// host (`gatehouse allow ID`, REST, a console on the same ledger) releases
// them. It returns when the line stops waiting, e.g. when the client
// cancels the call.
func AwaitAnswer(ctx context.Context, _ decisions.Record) (decisions.Answer, error) {
	<-ctx.Done()
	return decisions.Answer{}, ctx.Err()
}

// session returns the gatehouse session of the MCP client behind ss,
// creating it on first use. It ends with the MCP session: the gatehouse
// session stays in the ledger, with its history, but this server forgets it.
func (s *Server) session(ss *sdk.ServerSession) (*core.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess, ok := s.sessions[ss]; ok {
		return sess, nil
	}
	sess, err := s.ws.CreateSession(s.agentName(ss), core.Profile(s.opts.Profile))
	if err != nil {
		return nil, err
	}
	s.sessions[ss] = sess
	go func() {
		_ = ss.Wait()
		s.mu.Lock()
		delete(s.sessions, ss)
		s.mu.Unlock()
	}()
	return sess, nil
}

// agentName is the configured agent, else the client's own name.
func (s *Server) agentName(ss *sdk.ServerSession) string {
	if s.opts.Agent != "" {
		return s.opts.Agent
	}
	if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil && p.ClientInfo.Name != "" {
		return p.ClientInfo.Name
	}
	return defaultAgent
}
