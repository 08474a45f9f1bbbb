package mcp_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core"
	"gatehouse/core/bypasstest"
	"gatehouse/mcp"
	"gatehouse/store/sqlite"
)

// TestBypassFileTools runs the bypass corpus's file attempts through the
// MCP file tools, judged by the twin as every door is (STYLE §6).
func TestBypassFileTools(t *testing.T) {
	db, err := sqlite.Open(filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	bypasstest.RunFiles(t, func(t *testing.T, w bypasstest.World) bypasstest.Opened {
		hostRoot := t.TempDir()
		ws, err := core.NewWorkspace(bypasstest.Mounts(t, w, hostRoot), core.WithProfiles(bypasstest.Profile(w)),
			core.WithStore(db), core.WithLimits(core.Limits{WallTime: 10 * time.Second}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.Close() })
		bypasstest.LayLinks(t, ws.VFS().View(nil), w)
		srv, err := mcp.New(ws, mcp.Options{Profile: bypasstest.ProfileName})
		if err != nil {
			t.Fatal(err)
		}
		f := &fixture{t: t, ws: ws, srv: srv}
		return bypasstest.Opened{Door: toolDoor{f.connect("intruder", nil)}, FS: ws.VFS().View(nil), HostRoot: hostRoot}
	})
}

// toolDoor calls the MCP tool of the attempt's name (there is no stat
// tool: a stat attempt is a call of an unknown tool in every world).
type toolDoor struct{ cs *sdk.ClientSession }

func (d toolDoor) Do(t *testing.T, a bypasstest.FileAttempt) string {
	args := map[string]any{"path": a.Path}
	switch a.Op {
	case bypasstest.WriteFile:
		args["content"] = a.Content
	case bypasstest.EditFile:
		args["old_string"], args["new_string"] = a.Old, a.New
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := d.cs.CallTool(ctx, &sdk.CallToolParams{Name: a.Op, Arguments: args})
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%s\nisError=%v\n", resultText(res), res.IsError)
}
