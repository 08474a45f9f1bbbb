package core

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// G-1.3: a rule built in Go cites the line of the caller's code that built
// it, whichever way the workspace is assembled.
func TestWithProfilesCitesTheCallersLine(t *testing.T) {
	t.Parallel()
	spec := gate.ProfileSpec{Name: "p", Deny: []gate.Rule{{Reason: "no removals", Commands: []string{"rm"}}}}
	mounts := []vfs.MountSpec{{Prefix: "/w", Files: map[string]string{"f": "x\n"}}}

	_, file, line, _ := runtime.Caller(0)
	opt := WithProfiles(spec) // the line the records must cite: line+1
	site := fmt.Sprintf("%s:%d", filepath.Base(file), line+1)

	build := map[string]func() (*Workspace, error){
		"NewWorkspace": func() (*Workspace, error) { return NewWorkspace(mounts, opt) },
		"FromConfig":   func() (*Workspace, error) { return FromConfig(&Config{Mounts: mounts}, opt) },
	}
	for name, open := range build {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ws, err := open()
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			s, err := ws.CreateSession("agent", Profile("p"))
			if err != nil {
				t.Fatal(err)
			}
			res := s.Execute(context.Background(), "rm /w/f")
			if want := site + " (deny[0])"; res.Refusal == nil || res.Refusal.Rule != want {
				t.Errorf("refusal = %+v, want rule %q", res.Refusal, want)
			}
		})
	}
}
