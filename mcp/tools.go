package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core"
)

type bashInput struct {
	Command string `json:"command" jsonschema:"one bash command line to run in your session; shell state (cwd, variables, functions) persists between calls"`
}

type explainInput struct {
	Command string `json:"command" jsonschema:"the bash command line to judge without running it"`
}

func (s *Server) addTools() {
	yes, no := true, false
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name: "bash",
		Description: "Run one bash command line in your gated session and return its stdout, stderr and exit code. " +
			"A refused command explains why on stderr. A command that needs a human's approval waits for the answer " +
			"(the result then says what the command did) and reports `requires approval: REASON (ask ID)` if it is still unanswered.",
		Annotations: &sdk.ToolAnnotations{Title: "Run a command line", DestructiveHint: &yes, OpenWorldHint: &no},
	}, s.bash)
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:        "explain",
		Description: "Judge a bash command line without running it: for each command, whether it would run, be refused (and why) or need approval.",
		Annotations: &sdk.ToolAnnotations{Title: "Explain a command line", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, s.explain)
	s.addFileTools()
}

// bash runs one line in the client's session. The call lasts as long as the
// line, including any wait for a human's answer; a client that cancels the
// call ends the line, and its ask leaves the console's queue as cancelled.
func (s *Server) bash(ctx context.Context, req *sdk.CallToolRequest, in bashInput) (*sdk.CallToolResult, any, error) {
	if strings.TrimSpace(in.Command) == "" {
		return nil, nil, fmt.Errorf("command is empty")
	}
	sess, err := s.session(req.Session)
	if err != nil {
		return nil, nil, err
	}
	stop := s.reportWaiting(ctx, req, sess)
	res := sess.Execute(ctx, in.Command)
	stop()
	return &sdk.CallToolResult{
		Content: []sdk.Content{&sdk.TextContent{Text: ResultText(res)}},
		IsError: res.ExitCode != 0,
	}, res, nil
}

// ResultText renders a result for an agent: stdout, then stderr, then what
// core.RefusalLines adds (why a rule or a human refused, the human's note,
// `requires approval: REASON (ask ID)` for a question still waiting), then
// the exit code. Each part ends with a newline so none runs into the next.
func ResultText(res core.Result) string {
	var b strings.Builder
	for _, part := range []string{res.Stdout, res.Stderr} {
		b.WriteString(part)
		if part != "" && !strings.HasSuffix(part, "\n") {
			b.WriteByte('\n')
		}
	}
	b.WriteString(core.RefusalLines(res))
	fmt.Fprintf(&b, "exit code: %d\n", res.ExitCode)
	return b.String()
}

// explain is the dry run as the agent may see it: a hidden path reads as a
// missing one, and no hide reason is given away (G-4.5, G-11).
func (s *Server) explain(ctx context.Context, req *sdk.CallToolRequest, in explainInput) (*sdk.CallToolResult, any, error) {
	sess, err := s.session(req.Session)
	if err != nil {
		return nil, nil, err
	}
	exps, err := sess.ExplainForAgent(in.Command)
	if err != nil {
		return nil, nil, err
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: explainText(exps)}}},
		map[string]any{"explanations": exps}, nil
}

// explainText is one block per command: what would happen and why, and the
// exact stderr and exit code the agent would get.
func explainText(exps []core.Explanation) string {
	if len(exps) == 0 {
		return "no commands\n"
	}
	var b strings.Builder
	for _, e := range exps {
		fmt.Fprintf(&b, "%s: %s", e.Command, e.Outcome)
		if e.Reason != "" {
			fmt.Fprintf(&b, " (%s)", e.Reason)
		}
		b.WriteByte('\n')
		if e.Outcome != core.OutcomeRun && e.Outcome != core.OutcomeGranted && e.Outcome != core.OutcomeDynamic {
			if e.Stderr != "" {
				b.WriteString("  stderr: " + strings.TrimSuffix(e.Stderr, "\n") + "\n")
			}
			fmt.Fprintf(&b, "  exit code: %d\n", e.ExitCode)
		}
	}
	return b.String()
}

// reportWaiting sends MCP progress notifications while the session's line
// waits for an answer, if the client asked for progress: one as soon as the
// line starts waiting, then one every ProgressInterval. The returned func
// stops it.
func (s *Server) reportWaiting(ctx context.Context, req *sdk.CallToolRequest, sess *core.Session) func() {
	token := req.Params.GetProgressToken()
	if token == nil {
		return func() {}
	}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	events := s.ws.Watch(wctx)
	go func() {
		defer close(done)
		ticker := time.NewTicker(s.opts.ProgressInterval)
		defer ticker.Stop()
		var sent float64
		started := time.Now()
		notify := func() {
			message := s.waitingMessage(wctx, sess, time.Since(started))
			if message == "" {
				return
			}
			sent++
			_ = req.Session.NotifyProgress(wctx, &sdk.ProgressNotificationParams{
				ProgressToken: token, Progress: sent, Message: message,
			})
		}
		for {
			select {
			case <-wctx.Done():
				return
			case ev, ok := <-events:
				if !ok {
					return
				}
				if ev.Kind == core.EventWaiting && ev.SessionID == sess.ID() {
					notify()
				}
			case <-ticker.C:
				notify()
			}
		}
	}()
	return func() { cancel(); <-done }
}

// waitingMessage says what the line waits for, or "" when it is not
// waiting.
func (s *Server) waitingMessage(ctx context.Context, sess *core.Session, waited time.Duration) string {
	if sess.State() != "waiting" {
		return ""
	}
	pending, err := s.ws.Decisions().Pending(ctx, sess.ID())
	if err != nil || len(pending) == 0 {
		return "waiting for a human to answer"
	}
	r := pending[len(pending)-1]
	return fmt.Sprintf("waiting %s for a human to answer ask %s: %s (%s)", waited.Round(time.Second), r.ID, r.Command, r.Reason)
}
