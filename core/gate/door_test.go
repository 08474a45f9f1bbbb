package gate

import (
	"errors"
	"io/fs"
	"syscall"
	"testing"

	"gatehouse/core/vfs"
)

// Ops as the VFS builds them.
func stat(p string) vfs.Op    { return vfs.Op{Name: vfs.OpStat, Path: p} }
func lstat(p string) vfs.Op   { return vfs.Op{Name: vfs.OpLstat, Path: p} }
func readDir(p string) vfs.Op { return vfs.Op{Name: vfs.OpReadDir, Path: p} }
func read(p string) vfs.Op    { return vfs.Op{Name: vfs.OpOpen, Path: p} }
func write(p string) vfs.Op   { return vfs.Op{Name: vfs.OpOpen, Path: p, Write: true} }
func create(p string) vfs.Op  { return vfs.Op{Name: vfs.OpOpen, Path: p, Write: true, Create: true} }
func mkdir(p string) vfs.Op   { return vfs.Op{Name: vfs.OpMkdir, Path: p, Write: true, Create: true} }
func remove(p string) vfs.Op  { return vfs.Op{Name: vfs.OpRemove, Path: p, Write: true} }
func rename(p string) vfs.Op  { return vfs.Op{Name: vfs.OpRename, Path: p, Write: true} }
func chmod(p string) vfs.Op   { return vfs.Op{Name: vfs.OpChmod, Path: p, Write: true} }

// errKind names what a door answer means to a session.
func errKind(err error) string {
	var refused *vfs.RefusedError
	switch {
	case err == nil:
		return "pass"
	case errors.Is(err, vfs.ErrHidden):
		return "ENOENT"
	case errors.Is(err, syscall.EACCES):
		return "EACCES"
	case errors.Is(err, syscall.EROFS):
		return "EROFS"
	case errors.As(err, &refused):
		return "refused: " + refused.Reason
	}
	return "unexpected: " + err.Error()
}

// G-4.5, G-4.7, G-4.11, G-5.2, G-6.1, G-6.1b through the demo profile's door.
func TestDoorDemo(t *testing.T) {
	t.Parallel()
	door := demoProfile(t).Door(nil)
	refusedVault := "refused: " + reasonVault
	tests := []struct {
		name string
		op   vfs.Op
		want string
	}{
		{"G-6.1 visible file reads", read("/runbook/README.md"), "pass"},
		{"G-6.1 visible file writes", write("/runbook/README.md"), "pass"},
		{"G-6.1b denied entry can be stat'ed", stat("/vault/aws.token"), "pass"},
		{"G-6.1b denied entry can be lstat'ed", lstat("/vault/aws.token"), "pass"},
		{"G-6.1b denied entry cannot be opened", read("/vault/aws.token"), refusedVault},
		{"G-6.1b denied entry cannot be written", write("/vault/aws.token"), refusedVault},
		{"G-6.1b denied entry cannot be removed", remove("/vault/aws.token"), refusedVault},
		{"G-6.1b denied entry cannot be renamed", rename("/vault/aws.token"), refusedVault},
		{"G-6.1b denied directory cannot be listed", readDir("/vault/certs"), refusedVault},
		{"G-6.1b denied name cannot be created", create("/vault/new"), refusedVault},
		{"G-4.2 the vault itself is not denied", readDir("/vault"), "pass"},
		{"G-4.5 hidden path is missing", stat("/vault/internal"), "ENOENT"},
		{"G-4.5 below a hidden path is missing", read("/vault/internal/a/b"), "ENOENT"},
		{"G-4.5 hidden by glob", read("/runbook/notes.bak"), "ENOENT"},
		{"G-4.11 creating a hidden name in a visible dir", create("/runbook/new.bak"), "EACCES"},
		{"G-4.5 mkdir of a hidden name a deny reaches: refused as a missing name there", mkdir("/vault/internal"), refusedVault},
		{"G-4.5 creating inside a hidden dir stays missing", create("/vault/internal/new"), "ENOENT"},
		{"G-4.5 writing an existing hidden file is missing", write("/runbook/notes.bak"), "ENOENT"},
		{"G-4.7 shown file reads", read("/vault/public/ca.pem"), "pass"},
		{"G-4.7 shown ro file refuses writes", write("/vault/public/ca.pem"), "EROFS"},
		{"G-4.7 shown ro dir refuses creation", create("/vault/public/new.pem"), "EROFS"},
		{"G-5.1 profile-narrowed mount reads", read("/repo/main.go"), "pass"},
		{"G-5.2 profile-narrowed mount refuses writes", write("/repo/main.go"), "EROFS"},
		{"G-5.2 profile-narrowed mount refuses chmod", chmod("/repo/main.go"), "EROFS"},
		{"G-5.2 hidden beats read-only", create("/repo/deploy.key"), "EACCES"},
		{"G-5.7 synthetic paths pass", write("/dev/null"), "pass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := errKind(door.CheckOp(tt.op)); got != tt.want {
				t.Errorf("CheckOp(%s %s) = %s, want %s", tt.op.Name, tt.op.Path, got, tt.want)
			}
		})
	}
}

// G-6.2, G-7.3: a door refusal unwraps to a permission error and carries the
// rule's record, with the path that was touched.
func TestDoorRefusalRecord(t *testing.T) {
	t.Parallel()
	err := demoProfile(t).Door(nil).CheckOp(read("/vault/aws.token"))
	if !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("refusal %v does not unwrap to fs.ErrPermission", err)
	}
	if err.Error() != reasonVault {
		t.Errorf("refusal text = %q, want the reason alone", err)
	}
	rec, ok := err.(*vfs.RefusedError).Detail.(*Refusal)
	if !ok {
		t.Fatalf("Detail = %T, want *Refusal", err.(*vfs.RefusedError).Detail)
	}
	want := Refusal{Kind: "deny", Reason: reasonVault, Policy: "profile:responder", Scope: "operand", Rule: srcDenyVault, Path: "/vault/aws.token"}
	if *rec != want {
		t.Errorf("record = %+v, want %+v", *rec, want)
	}
}

// G-4.7: a traversable directory can be stat'ed and listed, and the VFS's
// per-child questions leave only shown (or traversable) children.
func TestDoorTraversableListing(t *testing.T) {
	t.Parallel()
	spec := ProfileSpec{Name: "t",
		Hide: []PathGroup{{Paths: []string{"/vault"}}},
		Show: []ShowEntry{{Path: "/vault/public", Mode: "ro"}, {Path: "/vault/teams/sre"}},
	}
	door := mustCompile(t, spec, []Mount{{Prefix: "/vault"}}).Door(nil)
	for _, op := range []vfs.Op{stat("/vault"), lstat("/vault"), readDir("/vault"), readDir("/vault/teams")} {
		if err := door.CheckOp(op); err != nil {
			t.Errorf("CheckOp(%s %s) = %v, want pass", op.Name, op.Path, err)
		}
	}
	var listed []string
	for _, child := range []string{"aws.token", "internal", "public", "teams"} {
		if door.CheckOp(lstat("/vault/"+child)) == nil {
			listed = append(listed, child)
		}
	}
	if got := joinWords(listed); got != "public_teams" {
		t.Errorf("ls /vault lists %q, want public and teams only", listed)
	}
	tests := []struct {
		op   vfs.Op
		want string
	}{
		{create("/vault/new"), "EACCES"},     // G-4.11: parent is visible to the session
		{remove("/vault"), "EACCES"},         // the session sees /vault: ENOENT would contradict ls
		{create("/vault/public/x"), "EROFS"}, // shown ro
		{create("/vault/teams/sre/x"), "pass"},
		{read("/vault/teams/ops/x"), "ENOENT"},
	}
	for _, tt := range tests {
		if got := errKind(door.CheckOp(tt.op)); got != tt.want {
			t.Errorf("CheckOp(%s %s) = %s, want %s", tt.op.Name, tt.op.Path, got, tt.want)
		}
	}
}

// G-6.1b, G-9: a path-only ask entry refuses ops until the command is granted.
func TestDoorAskEntryPassesWhenGranted(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "t",
		Ask: []Rule{{Reason: "customer data needs a reason", Paths: []string{"/data/customers"}, Source: "w:1:1"}}},
		[]Mount{{Prefix: "/data"}})
	op := read("/data/customers/a.csv")
	var refused *vfs.RefusedError
	if err := p.Door(nil).CheckOp(op); !errors.As(err, &refused) || refused.Detail.(*Refusal).Kind != "ask" {
		t.Errorf("ungranted read = %v, want an ask refusal", err)
	}
	if err := p.Door(&OpScope{}).CheckOp(stat("/data/customers/a.csv")); err != nil {
		t.Errorf("stat of an asked entry = %v, want pass", err)
	}
	if err := p.Door(&OpScope{Granted: true}).CheckOp(op); err != nil {
		t.Errorf("granted read = %v, want pass", err)
	}
}

// G-4.10: operands Judge refused fail wherever the command touches them,
// including below them, while their siblings pass.
func TestDoorRefusedOperands(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "t",
		Deny: []Rule{{Reason: "grep may not read logs", Commands: []string{"grep"}, Paths: []string{"/data/logs"}}}},
		[]Mount{{Prefix: "/data"}})
	v := p.Judge(cmd("/data", words("grep", "-r", "x", "/data/logs", "/data/src"), "/data/logs", "/data/src"))
	if len(v.OperandRefusals) != 1 {
		t.Fatalf("OperandRefusals = %+v, want one", v.OperandRefusals)
	}
	door := p.Door(&OpScope{Refused: v.OperandRefusals})
	tests := []struct {
		op   vfs.Op
		want string
	}{
		{stat("/data/logs"), "refused: grep may not read logs"},
		{readDir("/data/logs"), "refused: grep may not read logs"},
		{read("/data/logs/app/1.log"), "refused: grep may not read logs"},
		{read("/data/logsx"), "pass"},
		{read("/data/src/main.go"), "pass"},
	}
	for _, tt := range tests {
		if got := errKind(door.CheckOp(tt.op)); got != tt.want {
			t.Errorf("CheckOp(%s %s) = %s, want %s", tt.op.Name, tt.op.Path, got, tt.want)
		}
	}
	// A command-scoped rule is not the door's business for other commands.
	if err := p.Door(nil).CheckOp(read("/data/logs/app/1.log")); err != nil {
		t.Errorf("another command's read = %v, want pass", err)
	}
}

// G-14: the door's allow path allocates nothing.
func TestDoorAllowPathAllocatesNothing(t *testing.T) {
	p := demoProfile(t)
	door := p.Door(&OpScope{Refused: []OperandRefusal{{Operand: Operand{Path: "/runbook/old"}, Refusal: &Refusal{}}}})
	ops := []vfs.Op{read("/runbook/frozen/restore.md"), write("/runbook/README.md"), stat("/vault/aws.token"), read("/vault/public/ca.pem")}
	for _, op := range ops {
		if n := testing.AllocsPerRun(100, func() { _ = door.CheckOp(op) }); n != 0 {
			t.Errorf("CheckOp(%s %s) allocates %v times", op.Name, op.Path, n)
		}
	}
}
