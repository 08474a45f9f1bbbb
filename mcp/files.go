package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"syscall"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// maxReadBytes bounds what read_file returns in one call; a larger file is
// cut with a note saying so (the agent can page with the bash tool).
const maxReadBytes = 1 << 20

type readFileInput struct {
	Path string `json:"path" jsonschema:"the file to read, absolute or relative to your session's current directory"`
}

type writeFileInput struct {
	Path    string `json:"path" jsonschema:"the file to write, absolute or relative to your session's current directory; it is created or replaced"`
	Content string `json:"content" jsonschema:"the file's new content"`
}

type listDirInput struct {
	Path string `json:"path,omitempty" jsonschema:"the directory to list, absolute or relative to your session's current directory (default: the current directory)"`
}

func (s *Server) addFileTools() {
	no := false
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:        "read_file",
		Description: "Read a file of your session's filesystem. Paths you may not see do not exist; a refused read says why.",
		Annotations: &sdk.ToolAnnotations{Title: "Read a file", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, s.readFile)
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:        "write_file",
		Description: "Create or replace a file of your session's filesystem with the given content. A refused write says why.",
		Annotations: &sdk.ToolAnnotations{Title: "Write a file", OpenWorldHint: &no},
	}, s.writeFile)
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:        "list_dir",
		Description: "List a directory of your session's filesystem, one entry per line; directories end with /.",
		Annotations: &sdk.ToolAnnotations{Title: "List a directory", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, s.listDir)
}

// fileOp is one file tool call about to touch the filesystem: the session's
// view through its profile's op door, and the path resolved against the
// session's cwd.
type fileOp struct {
	fs   vfs.FS
	path string
}

// admitFileOp judges a file tool as the shell command it stands for (cat,
// tee, ls), so the tool set, command rules, command-scoped path rules and
// policies apply to the tools exactly as to the shell, and then opens the
// op door for the command. A tool never raises an ask: a question about a
// file is put by running the command through bash, where the call can wait
// for the answer.
func (s *Server) admitFileOp(sess *core.Session, tool, stands string, name string, write bool) (fileOp, error) {
	if name == "" {
		name = "."
	}
	abs := name
	if !strings.HasPrefix(abs, "/") {
		abs = path.Join(sess.Cwd(), name)
	}
	abs = path.Clean(abs)
	prof, ok := s.ws.Profile(sess.ProfileName())
	if !ok {
		// Unrestricted session (G-2.2): only the mounts' modes apply.
		return fileOp{fs: s.ws.VFS().View(vfs.OpenDoor), path: abs}, nil
	}
	cmd := gate.Command{
		Argv: []string{stands, name}, Cwd: sess.Cwd(), Line: stands + " " + name,
		Operands: []gate.Operand{{Arg: name, Path: abs, Write: write}},
		Session:  gate.SessionInfo{ID: sess.ID(), AgentID: sess.AgentID(), Profile: sess.ProfileName()},
	}
	v := prof.Judge(cmd)
	switch v.Outcome {
	case gate.NotFound:
		return fileOp{}, fmt.Errorf("%s: not available: this session has no %s command", tool, stands)
	case gate.Deny:
		if v.Refusal.Scope == gate.ScopeOperand {
			return fileOp{}, fmt.Errorf("%s: %s: %s", tool, name, v.Refusal.Reason)
		}
		return fileOp{}, fmt.Errorf("%s: Permission denied (%s)", tool, orNoReason(v.Refusal.Reason))
	case gate.Ask:
		return fileOp{}, fmt.Errorf("%s: %s: requires approval: %s; run `%s %s` with the bash tool to ask for it",
			tool, name, orNoReason(v.Refusal.Reason), stands, name)
	}
	return fileOp{fs: s.ws.VFS().View(prof.Door(&gate.OpScope{Command: &cmd})), path: abs}, nil
}

func (s *Server) readFile(ctx context.Context, req *sdk.CallToolRequest, in readFileInput) (*sdk.CallToolResult, any, error) {
	sess, err := s.session(req.Session)
	if err != nil {
		return nil, nil, err
	}
	op, err := s.admitFileOp(sess, "read_file", "cat", in.Path, false)
	if err != nil {
		return nil, nil, err
	}
	f, err := op.fs.Open(op.path)
	if err != nil {
		return nil, nil, fileError("read_file", in.Path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxReadBytes+1))
	if err != nil {
		return nil, nil, fileError("read_file", in.Path, err)
	}
	text := string(data)
	if len(data) > maxReadBytes {
		text = string(data[:maxReadBytes]) + fmt.Sprintf("\n[read_file: cut at %d bytes; read the rest with the bash tool]\n", maxReadBytes)
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil, nil
}

func (s *Server) writeFile(ctx context.Context, req *sdk.CallToolRequest, in writeFileInput) (*sdk.CallToolResult, any, error) {
	sess, err := s.session(req.Session)
	if err != nil {
		return nil, nil, err
	}
	op, err := s.admitFileOp(sess, "write_file", "tee", in.Path, true)
	if err != nil {
		return nil, nil, err
	}
	f, err := op.fs.OpenFile(op.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, nil, fileError("write_file", in.Path, err)
	}
	_, werr := io.WriteString(f, in.Content)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, nil, fileError("write_file", in.Path, werr)
	}
	text := fmt.Sprintf("wrote %d bytes to %s\n", len(in.Content), op.path)
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil, nil
}

// listDir lists what the session can see: hidden entries are absent, as
// from ls (G-4.5); denied ones are listed and fail when opened (G-4.6).
func (s *Server) listDir(ctx context.Context, req *sdk.CallToolRequest, in listDirInput) (*sdk.CallToolResult, any, error) {
	sess, err := s.session(req.Session)
	if err != nil {
		return nil, nil, err
	}
	op, err := s.admitFileOp(sess, "list_dir", "ls", in.Path, false)
	if err != nil {
		return nil, nil, err
	}
	entries, err := op.fs.ReadDir(op.path)
	if err != nil {
		return nil, nil, fileError("list_dir", orDot(in.Path), err)
	}
	var b strings.Builder
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			name += "/"
		}
		names = append(names, name)
		b.WriteString(name + "\n")
	}
	if len(entries) == 0 {
		b.WriteString("(empty directory)\n")
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}},
		map[string]any{"path": op.path, "entries": names}, nil
}

// fileError renders a filesystem error in the GNU voice the shell uses: a
// hidden path is exactly as missing as a missing one, a refusal says its
// reason.
func fileError(tool, name string, err error) error {
	var refused *vfs.RefusedError
	if errors.As(err, &refused) {
		return fmt.Errorf("%s: %s: %s", tool, name, refused.Reason)
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		text := errno.Error()
		return fmt.Errorf("%s: %s: %s", tool, name, strings.ToUpper(text[:1])+text[1:])
	}
	return fmt.Errorf("%s: %s: %v", tool, name, err)
}

func orNoReason(reason string) string {
	if reason == "" {
		return "no reason given"
	}
	return reason
}

func orDot(name string) string {
	if name == "" {
		return "."
	}
	return name
}
