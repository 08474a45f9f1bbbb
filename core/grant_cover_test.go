package core

import (
	"context"
	"slices"
	"testing"

	"gatehouse/core/decisions"
)

// SessionCovers says, rule by rule, what allowing an ask for its session
// lets run from then on: the rule as written, with its mount and its
// exceptions, read from the profile the session runs under (G-9.5).
func TestSessionCoversNameWhatTheGrantLetsRun(t *testing.T) {
	t.Parallel()
	cfg, err := ParseDocument("ws.yaml", []byte(`
mounts:
  /data: {files: {a.txt: "a\n", secret/k: "k\n"}}
  /deploy: {files: {db.yaml: "r\n"}}
profiles:
  p:
    cwd: /data
    commands:
      allow: [cat, echo, rm]
      ask:
        - {reason: keys need a human, paths: [/data/secret/*]}
        - {reason: removal needs sign-off, command: rm, except: [{command: rm a.txt, cwd: /data}]}
    mounts:
      /deploy:
        commands:
          ask: [{reason: deploys need sign-off, command: echo}]
`))
	if err != nil {
		t.Fatal(err)
	}
	ws, err := FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	s, err := ws.CreateSession("agent", Profile("p"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		line string
		want []SessionCover
	}{
		{"cat /data/secret/k", []SessionCover{{Rule: "ws.yaml:11:11", Reason: "keys need a human", Known: true, Paths: []string{"/data/secret/*"}}}},
		{"rm /data/secret/k", []SessionCover{
			{Rule: "ws.yaml:12:11", Reason: "removal needs sign-off", Known: true, Commands: []string{"rm"}, Except: []string{"rm a.txt (in /data)"}},
			{Rule: "ws.yaml:11:11", Reason: "keys need a human", Known: true, Paths: []string{"/data/secret/*"}},
		}},
		{"echo x > /deploy/db.yaml", []SessionCover{{Rule: "ws.yaml:16:17", Reason: "deploys need sign-off", Known: true, Commands: []string{"echo"}, Mount: "/deploy"}}},
	} {
		res := s.Execute(ctx, tc.line)
		if res.Refusal == nil || res.Refusal.AskID == "" {
			t.Fatalf("%s: no ask: %+v", tc.line, res)
		}
		rec, err := ws.Decisions().Get(ctx, res.Refusal.AskID)
		if err != nil {
			t.Fatal(err)
		}
		got := ws.SessionCovers(ctx, rec)
		if !slices.EqualFunc(got, tc.want, sameCover) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.line, got, tc.want)
		}
	}
	// A program's question, and a rule no longer in the profile.
	rec := decisions.Record{SessionID: s.ID(), Rules: []decisions.AskRule{
		{Reason: "pushes need a human", Rule: "guard.star:3:5", Policy: "guard.star"},
		{Reason: "gone", Rule: "ws.yaml:99:1", Policy: "profile:p"},
	}}
	got := ws.SessionCovers(ctx, rec)
	if len(got) != 2 || got[0].Program != "guard.star" || got[0].Known || got[1].Known || got[1].Rule != "ws.yaml:99:1" {
		t.Errorf("program and missing rule: %+v", got)
	}
}

func sameCover(a, b SessionCover) bool {
	return a.Rule == b.Rule && a.Reason == b.Reason && a.Known == b.Known && a.Mount == b.Mount && a.Program == b.Program &&
		slices.Equal(a.Commands, b.Commands) && slices.Equal(a.Paths, b.Paths) && slices.Equal(a.Except, b.Except)
}
