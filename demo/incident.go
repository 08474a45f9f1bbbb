package demo

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	_ "embed"

	"gopkg.in/yaml.v3"

	"gatehouse/core"
	"gatehouse/core/decisions"
)

//go:embed incident/workspace.yaml
var incidentDoc []byte

//go:embed incident/scenario.yaml
var incidentScenario []byte

// How the embedded incident files name themselves in rule sources and
// errors.
const (
	IncidentDocPath      = "demo/incident/workspace.yaml"
	IncidentScenarioPath = "demo/incident/scenario.yaml"
)

// LoadIncident builds the incident demo's workspace (G-15.4).
func LoadIncident(opts ...core.Option) (*core.Workspace, error) {
	cfg, err := core.ParseDocument(IncidentDocPath, incidentDoc)
	if err != nil {
		return nil, err
	}
	return core.FromConfig(cfg, opts...)
}

// IncidentDocument is the incident demo's workspace document, a copy of
// the embedded bytes: the console writes it to a file of its own, so that
// amending a rule never edits the document it was built from.
func IncidentDocument() []byte { return slices.Clone(incidentDoc) }

// IncidentScenario is the embedded scenario the incident demo replays.
func IncidentScenario() (*Scenario, error) {
	return ParseScenario(IncidentScenarioPath, incidentScenario)
}

// Scenario is a scripted crowd of agents: each agent gets one session with
// its profile and runs its steps in order, all agents at once.
type Scenario struct {
	Agents []ScenarioAgent `yaml:"agents"`
}

// ScenarioAgent is one agent of a scenario.
type ScenarioAgent struct {
	Name    string `yaml:"name"`
	Profile string `yaml:"profile"`
	Steps   []Step `yaml:"steps"`
}

// Step is a line to run or a pause to take (exactly one of the two).
type Step struct {
	Line  string        `yaml:"line"`
	Pause time.Duration `yaml:"pause"`
}

// LoadScenario reads a scenario file.
func LoadScenario(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load scenario: %w", err)
	}
	return ParseScenario(path, data)
}

// ParseScenario reads a scenario document. Unknown keys, agents without a
// name, repeated names and steps that are neither a line nor a pause are
// errors naming the file, so a typo never replays half a scenario.
func ParseScenario(name string, data []byte) (*Scenario, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var sc Scenario
	if err := dec.Decode(&sc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	seen := map[string]bool{}
	for i, a := range sc.Agents {
		if a.Name == "" {
			return nil, fmt.Errorf("%s: agents[%d] has no name", name, i)
		}
		if seen[a.Name] {
			return nil, fmt.Errorf("%s: agent %q appears twice", name, a.Name)
		}
		seen[a.Name] = true
		for j, s := range a.Steps {
			if (s.Line == "") == (s.Pause == 0) {
				return nil, fmt.Errorf("%s: agent %q step %d: want exactly one of line or pause", name, a.Name, j+1)
			}
			if s.Pause < 0 {
				return nil, fmt.Errorf("%s: agent %q step %d: negative pause", name, a.Name, j+1)
			}
		}
	}
	return &sc, nil
}

// StepResult is one line an agent ran and what it produced.
type StepResult struct {
	Agent     string
	SessionID string
	Step      int // the line's position among the agent's lines, from 1
	Line      string
	Result    core.Result
}

// ReplayOptions tune a replay.
type ReplayOptions struct {
	// SkipPauses runs the lines back to back (the headless demo).
	SkipPauses bool
	// SessionID names an agent's session; default the agent's name with a
	// random suffix, so replays into one ledger never collide.
	SessionID func(agent string) string
	// OnStep hears of every line as it ends, from the agent's goroutine.
	OnStep func(StepResult)
}

// Replay creates one session per agent and runs every agent's steps in its
// own goroutine until all are done or ctx ends; a line waiting for an
// answer holds only its own agent. Results come back grouped by agent in
// scenario order, each agent's lines in the order it ran them.
func Replay(ctx context.Context, ws *core.Workspace, sc *Scenario, opts ReplayOptions) ([]StepResult, error) {
	sessions := make([]*core.Session, len(sc.Agents))
	for i, a := range sc.Agents {
		var sopts []core.SessionOption
		if a.Profile != "" {
			sopts = append(sopts, core.Profile(a.Profile))
		}
		id := a.Name + "-" + randomSuffix()
		if opts.SessionID != nil {
			id = opts.SessionID(a.Name)
		}
		s, err := ws.CreateSession(a.Name, append(sopts, core.SessionID(id))...)
		if err != nil {
			return nil, fmt.Errorf("agent %s: %w", a.Name, err)
		}
		sessions[i] = s
	}
	results := make([][]StepResult, len(sc.Agents))
	var wg sync.WaitGroup
	for i, a := range sc.Agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = replayAgent(ctx, sessions[i], a, opts)
		}()
	}
	wg.Wait()
	var all []StepResult
	for _, r := range results {
		all = append(all, r...)
	}
	return all, ctx.Err()
}

func replayAgent(ctx context.Context, s *core.Session, a ScenarioAgent, opts ReplayOptions) []StepResult {
	var out []StepResult
	n := 0
	for _, step := range a.Steps {
		if step.Pause > 0 {
			if opts.SkipPauses {
				continue
			}
			select {
			case <-time.After(step.Pause):
			case <-ctx.Done():
				return out
			}
			continue
		}
		if ctx.Err() != nil {
			return out
		}
		n++
		r := StepResult{Agent: a.Name, SessionID: s.ID(), Step: n, Line: step.Line, Result: s.Execute(ctx, step.Line)}
		out = append(out, r)
		if opts.OnStep != nil {
			opts.OnStep(r)
		}
	}
	return out
}

// randomSuffix is four hex digits, enough to keep a few replays into one
// ledger apart while the id still reads as the agent's.
func randomSuffix() string {
	var b [2]byte
	rand.Read(b[:]) // never fails (crypto/rand documents it)
	return hex.EncodeToString(b[:])
}

// Incident is `gatehouse demo incident`: the console on the embedded
// scenario, or with --headless the same replay answered by a rule of thumb
// (--answer allow|deny|session) and printed as a transcript.
func Incident(ctx context.Context, args []string, w io.Writer, opts Options) error {
	if !hasFlag(args, "headless") {
		// Everything else (--quiet, --db) is the console's to read.
		if opts.Console == nil {
			return errors.New("demo incident: the console is not available in this build")
		}
		return opts.Console(ctx, args, w)
	}
	fs := flag.NewFlagSet("demo incident", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Bool("headless", true, "replay without a terminal and print the transcript")
	answerWith := fs.String("answer", "allow", "how every ask is answered: allow, deny or session")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return fmt.Errorf("demo incident: usage: demo incident [--headless [--answer allow|deny|session]]")
	}
	a, err := headlessAnswer(*answerWith)
	if err != nil {
		return err
	}
	return IncidentHeadless(ctx, a, w)
}

// hasFlag reports whether args carry the boolean flag -name or --name.
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-"+name || a == "--"+name || strings.HasPrefix(a, "-"+name+"=") || strings.HasPrefix(a, "--"+name+"=") {
			return true
		}
	}
	return false
}

// headlessAnswer reads --answer.
func headlessAnswer(word string) (decisions.Answer, error) {
	switch word {
	case "allow":
		return decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Once, By: "headless"}, nil
	case "session":
		return decisions.Answer{Outcome: decisions.Allow, Scope: decisions.Session, By: "headless"}, nil
	case "deny":
		return decisions.Answer{Outcome: decisions.Deny, Scope: decisions.Once, Note: "denied by the headless replay", By: "headless"}, nil
	}
	return decisions.Answer{}, fmt.Errorf("demo incident: --answer must be allow, deny or session, not %q", word)
}

// IncidentHeadless replays the incident scenario with no terminal: the
// workspace waits on asks as it does under the console, and a host
// goroutine answers each ask the moment the ledger reports it, the way a
// human at the console would, only faster. It prints the transcript sorted
// by agent and step, with no times or ids, so it can be pinned.
func IncidentHeadless(ctx context.Context, a decisions.Answer, w io.Writer) error {
	ws, err := LoadIncident(core.OnAsk(func(ctx context.Context, _ decisions.Record) (decisions.Answer, error) {
		<-ctx.Done() // the answer comes through the ledger, as from the console
		return decisions.Answer{}, ctx.Err()
	}))
	if err != nil {
		return err
	}
	defer ws.Close()
	sc, err := IncidentScenario()
	if err != nil {
		return err
	}
	hostCtx, stopHost := context.WithCancel(ctx)
	defer stopHost()
	ledger := ws.Decisions()
	events := ledger.Subscribe(hostCtx)
	go answerEvery(hostCtx, ledger, events, a)

	results, err := Replay(ctx, ws, sc, ReplayOptions{SkipPauses: true, SessionID: func(agent string) string { return agent }})
	if err != nil {
		return err
	}
	stopHost()
	asked, err := ledger.List(ctx, "")
	if err != nil {
		return err
	}
	return writeTranscript(w, sc, results, asked)
}

// answerEvery answers each new ask as it appears.
func answerEvery(ctx context.Context, ledger *decisions.Ledger, events <-chan decisions.Event, a decisions.Answer) {
	for ev := range events {
		if ev.Kind == decisions.EventAsk && ev.Record.Pending() {
			_, _ = ledger.Answer(ctx, ev.Record.ID, a)
		}
	}
}

// writeTranscript prints what every agent ran, agent by agent, with the
// questions each line raised and how they were answered.
func writeTranscript(w io.Writer, sc *Scenario, results []StepResult, asked []decisions.Record) error {
	questions := map[string][]decisions.Record{} // session \x00 line
	for _, r := range asked {
		k := r.SessionID + "\x00" + r.Line
		questions[k] = append(questions[k], r)
	}
	profiles := map[string]string{}
	for _, a := range sc.Agents {
		profiles[a.Name] = a.Profile
	}
	sort.SliceStable(results, func(i, j int) bool {
		if results[i].Agent != results[j].Agent {
			return results[i].Agent < results[j].Agent
		}
		return results[i].Step < results[j].Step
	})
	var b strings.Builder
	agent := ""
	for _, r := range results {
		if r.Agent != agent {
			if agent != "" {
				b.WriteString("\n")
			}
			agent = r.Agent
			fmt.Fprintf(&b, "== %s (profile %s)\n", agent, profiles[agent])
		}
		fmt.Fprintf(&b, "%d $ %s\n", r.Step, r.Line)
		for _, q := range questions[r.SessionID+"\x00"+r.Line] {
			word := q.Outcome + " " + q.Scope
			if q.Pending() {
				word = "unanswered"
			}
			fmt.Fprintf(&b, "  ? asked %q: %s -> %s\n", q.Command, q.Reason, word)
		}
		writeIndented(&b, "  | ", r.Result.Stdout)
		writeIndented(&b, "  ! ", r.Result.Stderr)
		fmt.Fprintf(&b, "  exit %d", r.Result.ExitCode)
		if ref := r.Result.Refusal; ref != nil {
			fmt.Fprintf(&b, " · refused: %s/%s %q by %s at %s", ref.Kind, ref.Scope, ref.Reason, ref.Policy, ref.Rule)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeIndented(b *strings.Builder, prefix, text string) {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return
	}
	for _, l := range strings.Split(text, "\n") {
		b.WriteString(prefix + l + "\n")
	}
}
