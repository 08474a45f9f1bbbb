package core

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"

	"gatehouse/core/decisions"
	"gatehouse/core/gate"
	"gatehouse/core/shell"
	"gatehouse/core/vfs"
)

// filesProfile installs only echo: the file operations need no cat, tee or
// ls (G-11.6). Its rules cover every verb.
var filesProfile = gate.ProfileSpec{
	Name:  "files",
	Cwd:   "/w",
	Allow: []string{"echo"},
	Deny: []gate.Rule{
		{Reason: "credentials are never read by hand", Paths: []string{"/vault/*"}},
		{Reason: "notes are edited in the shell", Commands: []string{"edit_file /w/notes.txt"}},
	},
	Ask: []gate.Rule{{Reason: "the frozen runbook needs sign-off", Paths: []string{"/w/frozen"}}},
	Hide: []gate.PathGroup{
		{Reason: "operator only", Paths: []string{"/vault/internal"}},
		{Reason: "private", Paths: []string{"/w/private"}},
	},
}

func filesMounts() []vfs.MountSpec {
	return []vfs.MountSpec{
		{Prefix: "/w", Files: map[string]string{
			"a.txt":      "one\ntwo\nthree\nfour\nfive\n",
			"noeol.txt":  "first\nlast",
			"notes.txt":  "todo\n",
			"dup.txt":    "x = 1\nx = 1\n",
			"frozen/r":   "1. page the on-call\n",
			"d/inner":    "in\n",
			"empty.txt":  "",
			"crlf.txt":   "a\r\nb\r\n",
			"nested/x/y": "deep\n",
			"private/k":  "k\n",
		}},
		{Prefix: "/vault", Files: map[string]string{"aws.token": "AKIA\n", "internal/k": "k\n"}},
		{Prefix: "/ro", ReadOnly: true, Files: map[string]string{"f": "frozen\n"}},
	}
}

func newFilesSession(t *testing.T, opts ...Option) (*Workspace, *Session) {
	t.Helper()
	ws, err := NewWorkspace(filesMounts(), append([]Option{WithProfiles(filesProfile)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("agent", Profile("files"))
	if err != nil {
		t.Fatal(err)
	}
	return ws, s
}

// fileErr checks err is a *FileError with the given stderr and exit code.
func fileErr(t *testing.T, err error, stderr string, exit int) *FileError {
	t.Helper()
	var fe *FileError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T), want a *FileError", err, err)
	}
	if fe.Stderr != stderr || fe.ExitCode != exit {
		t.Errorf("stderr %q exit %d, want %q exit %d", fe.Stderr, fe.ExitCode, stderr, exit)
	}
	return fe
}

func TestReadFileWindow(t *testing.T) {
	t.Parallel()
	_, s := newFilesSession(t)
	ctx := context.Background()
	cases := []struct {
		name, path string
		w          FileWindow
		want       string
		first      int
		total      int
	}{
		{"whole file", "/w/a.txt", FileWindow{}, "     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n     5\tfive\n", 1, 5},
		{"relative to the cwd", "a.txt", FileWindow{Limit: 1}, "     1\tone\n", 1, 5},
		{"an offset and a limit", "a.txt", FileWindow{Offset: 1, Limit: 2}, "     2\ttwo\n     3\tthree\n", 2, 5},
		{"past the end", "a.txt", FileWindow{Offset: 9}, "", 0, 5},
		{"a last line without a newline", "noeol.txt", FileWindow{}, "     1\tfirst\n     2\tlast\n", 1, 2},
		{"an empty file", "empty.txt", FileWindow{}, "", 0, 0},
		{"carriage returns are kept", "crlf.txt", FileWindow{}, "     1\ta\r\n     2\tb\r\n", 1, 2},
		{"a path through ..", "d/../a.txt", FileWindow{Offset: 4}, "     5\tfive\n", 5, 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text, err := s.ReadFile(ctx, tc.path, tc.w)
			if err != nil {
				t.Fatal(err)
			}
			if got := text.Numbered(); got != tc.want || text.First != tc.first || text.Total != tc.total {
				t.Errorf("got %q first %d total %d, want %q first %d total %d", got, text.First, text.Total, tc.want, tc.first, tc.total)
			}
		})
	}
}

func TestReadFileCutsLongLines(t *testing.T) {
	t.Parallel()
	_, s := newFilesSession(t)
	ctx := context.Background()
	long := strings.Repeat("x", shell.MaxLineBytes+10)
	if _, err := s.WriteFile(ctx, "long.txt", "short\n"+long+"\nend\n"); err != nil {
		t.Fatal(err)
	}
	text, err := s.ReadFile(ctx, "long.txt", FileWindow{})
	if err != nil {
		t.Fatal(err)
	}
	if text.Total != 3 || len(text.Lines) != 3 || text.Lines[0] != "short" || text.Lines[2] != "end" {
		t.Fatalf("lines %d/%d: %q … %q", len(text.Lines), text.Total, text.Lines[0], text.Lines[len(text.Lines)-1])
	}
	if want := strings.Repeat("x", shell.MaxLineBytes) + " [line cut at 65536 bytes]"; text.Lines[1] != want {
		t.Errorf("long line is %d bytes ending %q", len(text.Lines[1]), text.Lines[1][len(text.Lines[1])-30:])
	}
}

// G-11.6 with G-4.5, G-6.2, G-7.3: each operation fails in its own voice,
// a hidden path exactly as a missing one, a denied one with the rule's
// reason, and no operation needs a command the profile leaves out.
func TestFileOperationRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	type call func(s *Session) error
	read := func(p string) call {
		return func(s *Session) error { _, err := s.ReadFile(ctx, p, FileWindow{}); return err }
	}
	write := func(p string) call {
		return func(s *Session) error { _, err := s.WriteFile(ctx, p, "x\n"); return err }
	}
	edit := func(p, old, new string) call {
		return func(s *Session) error { _, err := s.EditFile(ctx, p, Edit{Old: old, New: new}); return err }
	}
	list := func(p string) call {
		return func(s *Session) error { _, err := s.ListDir(ctx, p); return err }
	}
	stat := func(p string) call {
		return func(s *Session) error { _, err := s.Stat(ctx, p); return err }
	}
	cases := []struct {
		name     string
		do       call
		stderr   string
		exit     int
		kind     string // refusal kind, "" = none
		notExist bool
	}{
		{"read missing", read("/w/nope"), "read_file: /w/nope: No such file or directory\n", 1, "", true},
		{"read hidden", read("/vault/internal/k"), "read_file: /vault/internal/k: No such file or directory\n", 1, "", true},
		{"read denied", read("/vault/aws.token"), "read_file: /vault/aws.token: credentials are never read by hand\n", 1, "deny", false},
		{"read denied through ..", read("../vault/aws.token"), "read_file: ../vault/aws.token: credentials are never read by hand\n", 1, "deny", false},
		{"read a directory", read("d"), "read_file: d: Is a directory\n", 1, "", false},
		{"read no path", read(""), "read_file: missing operand\n", 1, "", false},
		{"write read-only mount", write("/ro/f"), "write_file: /ro/f: Read-only file system\n", 1, "", false},
		{"write new on read-only mount", write("/ro/new"), "write_file: /ro/new: Read-only file system\n", 1, "", false},
		{"write denied", write("/vault/aws.token"), "write_file: /vault/aws.token: credentials are never read by hand\n", 1, "deny", false},
		{"write into hidden", write("/vault/internal/new"), "write_file: /vault/internal/new: No such file or directory\n", 1, "", true},
		{"write a directory", write("/w/d"), "write_file: /w/d: Is a directory\n", 1, "", false},
		{"write in a missing directory", write("/w/no/x"), "write_file: /w/no/x: No such file or directory\n", 1, "", true},
		{"edit missing text", edit("a.txt", "six", "6"), "edit_file: a.txt: the text to replace was not found; read the file again and copy the text exactly, whitespace and indentation included\n", 1, "", false},
		{"edit not unique", edit("dup.txt", "x = 1", "x = 2"), "edit_file: dup.txt: the text to replace occurs 2 times; give more context to make it unique, or replace every occurrence\n", 1, "", false},
		{"edit empty old", edit("a.txt", "", "x"), "edit_file: a.txt: the text to replace is empty\n", 1, "", false},
		{"edit read-only", edit("/ro/f", "frozen", "thawed"), "edit_file: /ro/f: Read-only file system\n", 1, "", false},
		{"edit denied by command rule", edit("/w/notes.txt", "todo", "done"), "edit_file: Permission denied\n", 126, "deny", false},
		{"edit hidden", edit("/vault/internal/k", "k", "j"), "edit_file: /vault/internal/k: No such file or directory\n", 1, "", true},
		{"list hidden", list("/vault/internal"), "list_dir: /vault/internal: No such file or directory\n", 1, "", true},
		{"list a file", list("a.txt"), "list_dir: a.txt: Not a directory\n", 1, "", false},
		{"stat denied", stat("/vault/aws.token"), "stat_file: /vault/aws.token: credentials are never read by hand\n", 1, "deny", false},
		{"stat hidden", stat("/vault/internal"), "stat_file: /vault/internal: No such file or directory\n", 1, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, s := newFilesSession(t)
			fe := fileErr(t, tc.do(s), tc.stderr, tc.exit)
			switch {
			case tc.kind == "" && fe.Refusal != nil:
				t.Errorf("refusal %+v, want none", *fe.Refusal)
			case tc.kind != "" && (fe.Refusal == nil || fe.Refusal.Kind != tc.kind):
				t.Errorf("refusal %+v, want kind %s", fe.Refusal, tc.kind)
			}
			if got := errors.Is(fe, fs.ErrNotExist); got != tc.notExist {
				t.Errorf("errors.Is(err, fs.ErrNotExist) = %v, want %v", got, tc.notExist)
			}
		})
	}
}

// G-4.5: a hidden path and a missing one are indistinguishable through
// every file operation, to the byte.
func TestFileOperationsHiddenIsMissing(t *testing.T) {
	t.Parallel()
	_, s := newFilesSession(t)
	ctx := context.Background()
	ops := map[string]func(p string) error{
		"read":  func(p string) error { _, err := s.ReadFile(ctx, p, FileWindow{}); return err },
		"write": func(p string) error { _, err := s.WriteFile(ctx, p, "x"); return err },
		"edit":  func(p string) error { _, err := s.EditFile(ctx, p, Edit{Old: "k", New: "j"}); return err },
		"list":  func(p string) error { _, err := s.ListDir(ctx, p); return err },
		"stat":  func(p string) error { _, err := s.Stat(ctx, p); return err },
	}
	for name, op := range ops {
		for _, sub := range []string{"", "/k", "/k/deeper"} {
			if name == "write" && sub == "" {
				continue // creating a hidden name is EACCES, the one documented exception (G-4.11)
			}
			hidden, missing := op("/w/private"+sub), op("/w/absent"+sub)
			h := strings.ReplaceAll(hidden.Error(), "private", "X")
			m := strings.ReplaceAll(missing.Error(), "absent", "X")
			if h != m {
				t.Errorf("%s %s: hidden says %q, missing says %q", name, sub, hidden, missing)
			}
		}
	}
	list, err := s.ListDir(ctx, "/vault")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name)
	}
	if strings.Join(names, " ") != "aws.token" {
		t.Errorf("list_dir /vault = %v, want the denied token listed and the hidden directory absent (G-4.6)", names)
	}
}

func TestWriteEditListStat(t *testing.T) {
	t.Parallel()
	_, s := newFilesSession(t)
	ctx := context.Background()
	w, err := s.WriteFile(ctx, "new.txt", "alpha\nbeta\nbeta\n")
	if err != nil || w.Path != "/w/new.txt" || w.Bytes != 16 || !w.Created {
		t.Fatalf("WriteFile = %+v, %v", w, err)
	}
	if w, err := s.WriteFile(ctx, "/w/new.txt", "alpha\nbeta\ngamma\n"); err != nil || w.Created {
		t.Fatalf("rewrite = %+v, %v; want an existing file replaced", w, err)
	}
	e, err := s.EditFile(ctx, "new.txt", Edit{Old: "beta\n", New: "BETA\n"})
	if err != nil || e.Replacements != 1 || e.Line != 2 {
		t.Fatalf("EditFile = %+v, %v", e, err)
	}
	if e, err := s.EditFile(ctx, "dup.txt", Edit{Old: "x = 1", New: "x = 2", All: true}); err != nil || e.Replacements != 2 || e.Line != 1 {
		t.Fatalf("EditFile all = %+v, %v", e, err)
	}
	// The shell sees what the file operations wrote (one VFS, one door).
	res := s.Execute(ctx, `echo "$(< new.txt)" "$(< dup.txt)"`)
	if res.Stdout != "alpha\nBETA\ngamma x = 2\nx = 2\n" {
		t.Errorf("shell reads %q (stderr %q)", res.Stdout, res.Stderr)
	}
	list, err := s.ListDir(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, fi := range list {
		if fi.Dir {
			names = append(names, fi.Name+"/")
		} else {
			names = append(names, fi.Name)
		}
	}
	if got := strings.Join(names, " "); got != "a.txt crlf.txt d/ dup.txt empty.txt frozen/ nested/ new.txt noeol.txt notes.txt" { // private/ hidden
		t.Errorf("ListDir = %s", got)
	}
	fi, err := s.Stat(ctx, "a.txt")
	if err != nil || fi.Size != 24 || fi.Dir || fi.Path != "/w/a.txt" {
		t.Errorf("Stat = %+v, %v", fi, err)
	}
}

// G-11.6 with G-9: an operation on an asked path raises an ask like the
// shell does, and a host's answer lets exactly that operation through
// once; the record shows what a write would write.
func TestFileOperationAsks(t *testing.T) {
	t.Parallel()
	ws, s := newFilesSession(t)
	ctx := context.Background()

	_, err := s.WriteFile(ctx, "/w/frozen/r", "2. restore\n")
	fe := fileErr(t, err, "write_file: /w/frozen/r: the frozen runbook needs sign-off\n", 126)
	if !fe.Pending() || len(fe.Refusal.AskID) != 12 {
		t.Fatalf("refusal %+v, want a pending ask with an id", fe.Refusal)
	}
	rec, err := ws.Decisions().Get(ctx, fe.Refusal.AskID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Line != "write_file /w/frozen/r $'2. restore\\n'" || rec.Command != "write_file /w/frozen/r 2. restore\n" ||
		strings.Join(rec.Paths, ",") != "/w/frozen/r" || rec.Reason != "the frozen runbook needs sign-off" {
		t.Errorf("record line %q command %q paths %v reason %q", rec.Line, rec.Command, rec.Paths, rec.Reason)
	}
	// A retry raises no second record (G-9.8).
	_, err = s.WriteFile(ctx, "/w/frozen/r", "2. restore\n")
	if again := fileErr(t, err, fe.Stderr, 126); again.Refusal.AskID != fe.Refusal.AskID {
		t.Errorf("retry raised %s, want the pending %s again", again.Refusal.AskID, fe.Refusal.AskID)
	}
	// Another content is another question: the grant covers what was shown.
	_, err = s.WriteFile(ctx, "/w/frozen/r", "rm -rf /\n")
	if other := fileErr(t, err, fe.Stderr, 126); other.Refusal.AskID == fe.Refusal.AskID {
		t.Error("a write of other content was covered by the first question")
	}

	if _, err := ws.Decisions().Answer(ctx, fe.Refusal.AskID, decisions.Answer{Outcome: decisions.Allow}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteFile(ctx, "/w/frozen/r", "2. restore\n"); err != nil {
		t.Fatalf("after allow once: %v", err)
	}
	// A read of the same path is its own question.
	_, err = s.ReadFile(ctx, "/w/frozen/r", FileWindow{})
	if read := fileErr(t, err, "read_file: /w/frozen/r: the frozen runbook needs sign-off\n", 126); !read.Pending() {
		t.Errorf("read refusal %+v, want a pending ask", read.Refusal)
	}
	_, err = s.WriteFile(ctx, "/w/frozen/r", "2. restore\n")
	if again := fileErr(t, err, fe.Stderr, 126); again.Refusal.AskID == fe.Refusal.AskID {
		t.Error("the once grant was not spent by the write that used it")
	}
}

// G-10.4: with an inline handler the operation waits for the answer, and a
// deny answer refuses it in the voice of a host's deny (G-9.5).
func TestFileOperationWaitsForInlineAnswer(t *testing.T) {
	t.Parallel()
	var asked []string
	outcome := decisions.Allow
	handler := func(ctx context.Context, rec decisions.Record) (decisions.Answer, error) {
		asked = append(asked, rec.Command)
		return decisions.Answer{Outcome: outcome, Note: "ok"}, nil
	}
	_, s := newFilesSession(t, OnAsk(handler))
	ctx := context.Background()
	text, err := s.ReadFile(ctx, "frozen/r", FileWindow{})
	if err != nil || text.Total != 1 {
		t.Fatalf("ReadFile with an allowing handler = %+v, %v", text, err)
	}
	outcome = decisions.Deny
	_, err = s.ListDir(ctx, "frozen")
	fe := fileErr(t, err, "list_dir: Permission denied\n", 126)
	if fe.Refusal == nil || fe.Refusal.Kind != "deny" || fe.Refusal.Reason != "the frozen runbook needs sign-off" {
		t.Errorf("refusal %+v", fe.Refusal)
	}
	if strings.Join(asked, "|") != "read_file frozen/r|list_dir frozen" {
		t.Errorf("the handler was asked %q", asked)
	}
}

// G-8: policy programs judge file operations as commands (pre_command sees
// the operation's name and argv) and their ops (pre_ops).
func TestFileOperationPolicies(t *testing.T) {
	t.Parallel()
	prof := filesProfile
	prof.Name = "guarded"
	prof.Policy = &gate.PolicySpec{Engine: "starlark", Name: "guard.star", Source: "test", Timeout: int64(gate.MaxPolicyTimeout), Code: `
def pre_command(ctx):
    if ctx["command"] == "write_file" and "AKIA" in ctx["argv"][2]:
        return {"deny": "no credentials in files"}
def pre_ops(ctx):
    if ctx["op"]["path"].endswith(".secret"):
        return {"deny": "secret files stay closed"}
`}
	ws, err := NewWorkspace(filesMounts(), WithProfiles(prof))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	s, err := ws.CreateSession("agent", Profile("guarded"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, err = s.WriteFile(ctx, "cred.txt", "AKIA-1234\n")
	fe := fileErr(t, err, "write_file: Permission denied\n", 126)
	if fe.Refusal == nil || fe.Refusal.Reason != "no credentials in files" || fe.Refusal.Hook != "pre_command" {
		t.Errorf("refusal %+v", fe.Refusal)
	}
	if _, err := s.WriteFile(ctx, "fine.txt", "ok\n"); err != nil {
		t.Errorf("a harmless write: %v", err)
	}
	_, err = s.WriteFile(ctx, "x.secret", "ok\n")
	fileErr(t, err, "write_file: x.secret: secret files stay closed\n", 1)
}

// A file operation is a line for the session's watchers: the console's
// transcript shows it with its result.
func TestFileOperationEvents(t *testing.T) {
	t.Parallel()
	ws, s := newFilesSession(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := ws.Watch(ctx)
	_, _ = s.ReadFile(ctx, "/vault/aws.token", FileWindow{})
	var got []string
	for len(got) < 2 {
		select {
		case ev := <-events:
			if ev.Kind == EventLineStart || ev.Kind == EventLineEnd {
				s := ev.Kind + " " + ev.Line
				if ev.Result != nil {
					s += " → " + strings.TrimSpace(ev.Result.Stderr)
				}
				got = append(got, s)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("events %v", got)
		}
	}
	want := "line-start read_file /vault/aws.token|line-end read_file /vault/aws.token → read_file: /vault/aws.token: credentials are never read by hand"
	if strings.Join(got, "|") != want {
		t.Errorf("events\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}
