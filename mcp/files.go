package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/core"
)

// The file tools are the Session's file operations (G-11.6): judged by the
// same gate, grants, asks and op door as the shell's utilities, without
// needing cat, tee or ls in the profile's tool set. This file only decodes
// arguments and words results.

type readFileInput struct {
	Path   string `json:"path" jsonschema:"the file to read, absolute or relative to your session's current directory"`
	Offset int    `json:"offset,omitempty" jsonschema:"the number of the first line to return, from 1 (default 1)"`
	Limit  int    `json:"limit,omitempty" jsonschema:"how many lines to return at most (default 2000)"`
}

type writeFileInput struct {
	Path    string `json:"path" jsonschema:"the file to write, absolute or relative to your session's current directory; it is created or replaced"`
	Content string `json:"content" jsonschema:"the file's new content"`
}

type editFileInput struct {
	Path       string `json:"path" jsonschema:"the file to edit, absolute or relative to your session's current directory"`
	OldString  string `json:"old_string" jsonschema:"the exact text to replace; it must occur exactly once unless replace_all is set"`
	NewString  string `json:"new_string" jsonschema:"the text to put in its place"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_string"`
}

type listDirInput struct {
	Path string `json:"path,omitempty" jsonschema:"the directory to list, absolute or relative to your session's current directory (default: the current directory)"`
}

func (s *Server) addFileTools() {
	no := false
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name: "read_file",
		Description: "Read lines of a file of your session's filesystem, numbered from 1 (like cat -n). " +
			"Use offset and limit to page through a long file. Paths you may not see do not exist; a refused read says why.",
		Annotations: &sdk.ToolAnnotations{Title: "Read a file", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, s.readFile)
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:        "write_file",
		Description: "Create or replace a file of your session's filesystem with the given content. A refused write says why; one that needs approval waits for it.",
		Annotations: &sdk.ToolAnnotations{Title: "Write a file", OpenWorldHint: &no},
	}, s.writeFile)
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name: "edit_file",
		Description: "Replace an exact string in a file of your session's filesystem. old_string must occur exactly once " +
			"(give more surrounding text to make it unique) unless replace_all is set. A refused edit says why.",
		Annotations: &sdk.ToolAnnotations{Title: "Edit a file", OpenWorldHint: &no},
	}, s.editFile)
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:        "list_dir",
		Description: "List a directory of your session's filesystem, one entry per line; directories end with /.",
		Annotations: &sdk.ToolAnnotations{Title: "List a directory", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, s.listDir)
}

func (s *Server) readFile(ctx context.Context, req *sdk.CallToolRequest, in readFileInput) (*sdk.CallToolResult, any, error) {
	sess, err := s.session(req.Session)
	if err != nil {
		return nil, nil, err
	}
	stop := s.reportWaiting(ctx, req, sess)
	text, err := sess.ReadFile(ctx, in.Path, core.FileWindow{Offset: max(in.Offset-1, 0), Limit: in.Limit})
	stop()
	if err != nil {
		return nil, nil, fileError(err)
	}
	out := text.Numbered()
	if last := text.First + len(text.Lines) - 1; len(text.Lines) > 0 && last < text.Total {
		out += fmt.Sprintf("[lines %d-%d of %d; read on with offset %d]\n", text.First, last, text.Total, last+1)
	}
	if text.Total == 0 {
		out = "(empty file)\n"
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out}}}, nil, nil
}

func (s *Server) writeFile(ctx context.Context, req *sdk.CallToolRequest, in writeFileInput) (*sdk.CallToolResult, any, error) {
	sess, err := s.session(req.Session)
	if err != nil {
		return nil, nil, err
	}
	stop := s.reportWaiting(ctx, req, sess)
	done, err := sess.WriteFile(ctx, in.Path, in.Content)
	stop()
	if err != nil {
		return nil, nil, fileError(err)
	}
	text := fmt.Sprintf("wrote %d bytes to %s\n", done.Bytes, done.Path)
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil, nil
}

func (s *Server) editFile(ctx context.Context, req *sdk.CallToolRequest, in editFileInput) (*sdk.CallToolResult, any, error) {
	sess, err := s.session(req.Session)
	if err != nil {
		return nil, nil, err
	}
	stop := s.reportWaiting(ctx, req, sess)
	done, err := sess.EditFile(ctx, in.Path, core.Edit{Old: in.OldString, New: in.NewString, All: in.ReplaceAll})
	stop()
	if err != nil {
		return nil, nil, fileError(err)
	}
	text := fmt.Sprintf("replaced %d occurrence(s) in %s, the first at line %d\n", done.Replacements, done.Path, done.Line)
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil, nil
}

// listDir lists what the session can see: hidden entries are absent, as
// from ls (G-4.5); denied ones are listed and fail when opened (G-4.6).
func (s *Server) listDir(ctx context.Context, req *sdk.CallToolRequest, in listDirInput) (*sdk.CallToolResult, any, error) {
	sess, err := s.session(req.Session)
	if err != nil {
		return nil, nil, err
	}
	stop := s.reportWaiting(ctx, req, sess)
	entries, err := sess.ListDir(ctx, in.Path)
	stop()
	if err != nil {
		return nil, nil, fileError(err)
	}
	var b strings.Builder
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		name := e.Name
		if e.Dir {
			name += "/"
		}
		names = append(names, name)
		b.WriteString(name + "\n")
	}
	if len(entries) == 0 {
		b.WriteString("(empty directory)\n")
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}},
		map[string]any{"entries": names}, nil
}

// fileError words a failed file operation for the agent: the operation's
// own stderr (the shell's voice), and for a question still waiting for a
// human the G-7.4 line, as bash's result gives it.
func fileError(err error) error {
	var fe *core.FileError
	if !errors.As(err, &fe) {
		return err
	}
	text := strings.TrimSuffix(fe.Stderr, "\n")
	if fe.Pending() {
		text += fmt.Sprintf("\nrequires approval: %s (ask %s)", fe.Refusal.Reason, fe.Refusal.AskID)
	}
	return errors.New(text)
}
