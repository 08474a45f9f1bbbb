package demo

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"strconv"

	"gatehouse/core"
)

//go:embed permissions/workspace.yaml
var permissionsDoc []byte

// PermissionsDocPath is how the permissions document names itself in rule
// sources.
const PermissionsDocPath = "demo/permissions/workspace.yaml"

// PermissionRow is one rule interaction of the permissions demo.
type PermissionRow struct {
	Role, Line, Shows string
}

// PermissionRows are the lines of the permissions demo (G-15.1), each run in
// a fresh session of its role.
var PermissionRows = []PermissionRow{
	{"responder", "cat README.md", "a plain read"},
	{"responder", "cat /vault/aws.token", "operand deny, in cat's voice"},
	{"responder", "ls /vault", "a denied path still listed; a hidden one absent"},
	{"responder", "cat /vault/internal/root.key", "hidden: reads as missing"},
	{"responder", "cat /vault/internal/nothing", "a truly missing path, for comparison"},
	{"responder", "ls", "the hidden *.bak is absent"},
	{"responder", "cat /vault/break-glass/procedure.md", "a deeper ask beats a shallower deny"},
	{"responder", "rm frozen/restore.md", "whole-command ask"},
	{"responder", "sort README.md", "not installed"},
	{"responder", "printenv AWS_SECRET_ACCESS_KEY; echo \"[$AWS_SECRET_ACCESS_KEY]\" $TEAM", "vars.hide"},
	{"responder", "cd /logs && touch new.log", "mount-level deny reached by cwd"},
	{"responder", "touch /logs/new.log", "mount-level deny reached by operand"},
	{"auditor", "ls /vault", "show inside a hidden region"},
	{"auditor", "cat /vault/public/ca.pem", "a shown file reads"},
	{"auditor", "cat /vault/aws.token", "hidden for this role"},
	{"auditor", "grep -c ERROR app.log", "the logs are readable"},
	{"auditor", "touch /runbook/x", "a profile narrows a mount to ro"},
	{"auditor", "touch /logs/x", "a read-only mount"},
	{"intern", "rm README.md", "whole-command deny"},
	{"intern", "ls /", "three mounts, one hidden"},
	{"intern", "ls /logs", "a hidden subdirectory"},
	{"intern", "grep ERROR /logs/app.log", "not installed for this role"},
}

// LoadPermissions builds the permissions demo's workspace.
func LoadPermissions(opts ...core.Option) (*core.Workspace, error) {
	cfg, err := core.ParseDocument(PermissionsDocPath, permissionsDoc)
	if err != nil {
		return nil, err
	}
	return core.FromConfig(cfg, opts...)
}

// Permissions prints one row per rule interaction (G-15.1).
func Permissions(ctx context.Context, w io.Writer) error {
	ws, err := LoadPermissions()
	if err != nil {
		return err
	}
	defer ws.Close()
	t := &table{header: []string{"ROLE", "LINE", "EXIT", "STDOUT", "STDERR", "REFUSAL", "SHOWS"}}
	for _, row := range PermissionRows {
		s, err := ws.CreateSession(row.Role, core.Profile(row.Role))
		if err != nil {
			return err
		}
		res := s.Execute(ctx, row.Line)
		refusal := "-"
		if res.Refusal != nil {
			refusal = fmt.Sprintf("%s/%s %s", res.Refusal.Kind, res.Refusal.Scope, res.Refusal.Rule)
		}
		t.add(row.Role, row.Line, strconv.Itoa(res.ExitCode), oneLine(res.Stdout), oneLine(res.Stderr), refusal, row.Shows)
	}
	return t.write(w)
}
