package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core"
)

type bashInput struct {
	Command string `json:"command" jsonschema:"one bash command line to run in your session; shell state (cwd, variables, functions) persists between calls"`
}

type explainInput struct {
	Command string `json:"command" jsonschema:"the bash command line to judge without running it"`
}

// Output is the structured content every tool returns: what the line or
// file operation did, in the shape of a line's result (G-7.6), with
// stdout and stderr capped as the text content is.
type Output struct {
	ExitCode int                 `json:"exit_code" jsonschema:"0 when it ran and succeeded; 126 refused or waiting for approval; 127 no such command"`
	Stdout   string              `json:"stdout" jsonschema:"standard output (capped; see cut)"`
	Stderr   string              `json:"stderr" jsonschema:"standard error, refusals in the command's own voice (capped; see cut)"`
	Refusal  *core.Refusal       `json:"refusal" jsonschema:"the first refusal record, or null when nothing was refused"`
	Refusals []core.Refusal      `json:"refusals" jsonschema:"every refusal record, in the order of the line"`
	Notes    []core.ReviewerNote `json:"notes,omitempty" jsonschema:"the notes humans wrote when they allowed the line's questions"`
	Cut      *Cut                `json:"cut,omitempty" jsonschema:"present when output was cut to fit limits.tool_output"`
}

// Cut says how much of a result was left out to fit the cap.
type Cut struct {
	Stdout int `json:"stdout" jsonschema:"characters of stdout left out"`
	Stderr int `json:"stderr" jsonschema:"characters of stderr left out"`
}

// ExplainOutput is explain's structured content.
type ExplainOutput struct {
	Output
	Explanations []core.Explanation `json:"explanations" jsonschema:"one entry per command: what would happen and why, with the exact stderr and exit code"`
}

func (s *Server) addTools() {
	yes, no := true, false
	if len(s.caps.Commands) > 0 {
		sdk.AddTool(s.sdk, &sdk.Tool{
			Name:        "bash",
			Description: s.bashDescription(),
			Annotations: &sdk.ToolAnnotations{Title: "Run a command line", DestructiveHint: &yes, OpenWorldHint: &no},
		}, s.bash)
		sdk.AddTool(s.sdk, &sdk.Tool{
			Name:        "explain",
			Description: "Judge a bash command line without running it: for each command, whether it would run, be refused (and why) or need approval.",
			Annotations: &sdk.ToolAnnotations{Title: "Explain a command line", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
		}, s.explain)
	}
	s.addFileTools()
}

// bashDescription names the commands that exist and the mounts the
// session sees, so the agent does not spend turns finding out.
func (s *Server) bashDescription() string {
	var b strings.Builder
	b.WriteString("Run one bash command line in your gated session and return its stdout, stderr and exit code. " +
		"Shell state (cwd, variables, functions) persists between calls. A refused command explains why on stderr. " +
		"A command that needs a human's approval waits for the answer (the result then says what the command did) " +
		"and reports `requires approval: REASON (ask ID)` if it is still unanswered. " +
		"Every command is implemented in-process (GNU-compatible options); no other programs exist.\n\n")
	fmt.Fprintf(&b, "Commands (%d): %s.\n", len(s.caps.Commands), strings.Join(s.caps.Commands, " "))
	b.WriteString(mountsLine(s.caps.Mounts))
	return b.String()
}

// mountsLine lists the mount points a session sees, with their modes.
func mountsLine(mounts []core.MountView) string {
	parts := make([]string, 0, len(mounts))
	for _, m := range mounts {
		p := m.Prefix + " (" + m.Mode
		if m.Partial {
			p += ", only parts visible"
		}
		parts = append(parts, p+")")
	}
	if len(parts) == 0 {
		return "Filesystem: nothing is visible.\n"
	}
	return "Filesystem (everything else does not exist): " + strings.Join(parts, ", ") + ".\n"
}

// bash runs one line in the client's session. The call lasts as long as the
// line, including any wait for a human's answer, and runs beside the
// client's other calls; a client that cancels the call ends the line, and
// its ask leaves the console's queue as withdrawn.
func (s *Server) bash(ctx context.Context, req *sdk.CallToolRequest, in bashInput) (*sdk.CallToolResult, Output, error) {
	if strings.TrimSpace(in.Command) == "" {
		return nil, Output{}, fmt.Errorf("command is empty")
	}
	sess, err := s.session(req.Session)
	if err != nil {
		return nil, Output{}, err
	}
	ctx, stop := s.waiting(ctx, req)
	res := sess.Execute(ctx, in.Command)
	stop()
	out := s.output(res, hintLine)
	return &sdk.CallToolResult{
		Content: []sdk.Content{&sdk.TextContent{Text: ResultText(out)}},
		IsError: res.ExitCode != 0,
	}, out, nil
}

// output is a result's structured content, its streams capped together
// within the server's limit.
func (s *Server) output(res core.Result, hint string) Output {
	stdout, stderr := capStreams(res.Stdout, res.Stderr, s.limit, hint)
	out := Output{ExitCode: res.ExitCode, Stdout: stdout.Text, Stderr: stderr.Text, Refusal: res.Refusal, Refusals: res.Refusals, Notes: res.Notes}
	if out.Refusals == nil {
		out.Refusals = []core.Refusal{}
	}
	if stdout.Cut > 0 || stderr.Cut > 0 {
		out.Cut = &Cut{Stdout: stdout.Cut, Stderr: stderr.Cut}
	}
	return out
}

// ResultText renders a tool's output for an agent: stdout, then stderr,
// then what core.RefusalLines adds (why a rule or a human refused, the
// human's note, `requires approval: REASON (ask ID)` for a question still
// waiting), then the exit code. Each part ends with a newline so none runs
// into the next.
func ResultText(out Output) string {
	var b strings.Builder
	for _, part := range []string{out.Stdout, out.Stderr} {
		b.WriteString(part)
		if part != "" && !strings.HasSuffix(part, "\n") {
			b.WriteByte('\n')
		}
	}
	b.WriteString(core.RefusalLines(core.Result{Refusals: out.Refusals, Notes: out.Notes}))
	fmt.Fprintf(&b, "exit code: %d\n", out.ExitCode)
	return b.String()
}

// explain is the dry run as the agent may see it: a hidden path reads as a
// missing one, and no hide reason is given away (G-4.5, G-11).
func (s *Server) explain(ctx context.Context, req *sdk.CallToolRequest, in explainInput) (*sdk.CallToolResult, ExplainOutput, error) {
	sess, err := s.session(req.Session)
	if err != nil {
		return nil, ExplainOutput{}, err
	}
	exps, err := sess.ExplainForAgent(in.Command)
	if err != nil {
		return nil, ExplainOutput{}, err
	}
	if exps == nil {
		exps = []core.Explanation{}
	}
	out := ExplainOutput{Output: s.output(core.Result{Stdout: explainText(exps)}, hintLine), Explanations: exps}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out.Stdout}}}, out, nil
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
