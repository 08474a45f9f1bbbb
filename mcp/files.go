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

// ReadOutput is read_file's structured content: stdout holds the numbered
// lines.
type ReadOutput struct {
	Output
	Path       string `json:"path,omitempty" jsonschema:"the absolute path read"`
	FirstLine  int    `json:"first_line" jsonschema:"the number of the first line returned (0 when none is)"`
	LastLine   int    `json:"last_line" jsonschema:"the number of the last line returned"`
	TotalLines int    `json:"total_lines" jsonschema:"how many lines the file has"`
}

// WriteOutput is write_file's structured content.
type WriteOutput struct {
	Output
	Path    string `json:"path,omitempty" jsonschema:"the absolute path written"`
	Bytes   int    `json:"bytes" jsonschema:"bytes written"`
	Created bool   `json:"created" jsonschema:"the file did not exist before"`
}

// EditOutput is edit_file's structured content.
type EditOutput struct {
	Output
	Path         string `json:"path,omitempty" jsonschema:"the absolute path edited"`
	Replacements int    `json:"replacements" jsonschema:"how many occurrences were replaced"`
	Line         int    `json:"line" jsonschema:"the line of the first replacement, from 1"`
}

// ListOutput is list_dir's structured content: stdout holds one entry per
// line.
type ListOutput struct {
	Output
	Entries []Entry `json:"entries" jsonschema:"the directory's entries, sorted by name; hidden ones are absent"`
}

// Entry is one entry of a listing.
type Entry struct {
	Name string `json:"name"`
	Type string `json:"type" jsonschema:"file, dir or link"`
	Size int64  `json:"size"`
}

func (s *Server) addFileTools() {
	no := false
	if s.caps.FileOps[core.OpReadFile] {
		sdk.AddTool(s.sdk, &sdk.Tool{
			Name: "read_file",
			Description: "Read lines of a file of your session's filesystem, numbered from 1 (like cat -n). " +
				"Use offset and limit to page through a long file. Paths you may not see do not exist; a refused read says why.",
			Annotations: &sdk.ToolAnnotations{Title: "Read a file", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
		}, s.readFile)
	}
	if s.caps.FileOps[core.OpWriteFile] {
		sdk.AddTool(s.sdk, &sdk.Tool{
			Name:        "write_file",
			Description: "Create or replace a file of your session's filesystem with the given content. A refused write says why; one that needs approval waits for it.",
			Annotations: &sdk.ToolAnnotations{Title: "Write a file", OpenWorldHint: &no},
		}, s.writeFile)
	}
	if s.caps.FileOps[core.OpEditFile] {
		sdk.AddTool(s.sdk, &sdk.Tool{
			Name: "edit_file",
			Description: "Replace an exact string in a file of your session's filesystem. old_string must occur exactly once " +
				"(give more surrounding text to make it unique) unless replace_all is set. A refused edit says why.",
			Annotations: &sdk.ToolAnnotations{Title: "Edit a file", OpenWorldHint: &no},
		}, s.editFile)
	}
	if s.caps.FileOps[core.OpListDir] {
		sdk.AddTool(s.sdk, &sdk.Tool{
			Name:        "list_dir",
			Description: "List a directory of your session's filesystem, one entry per line; directories end with /. " + mountsLine(s.caps.Mounts),
			Annotations: &sdk.ToolAnnotations{Title: "List a directory", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
		}, s.listDir)
	}
}

// fileCall runs one file operation for the client's session, reporting
// progress while it waits for a human, and turns a refusal or failure into
// the tool's error result. ok is false when the call ends there.
func (s *Server) fileCall(ctx context.Context, req *sdk.CallToolRequest, do func(context.Context, *core.Session) error) (res *sdk.CallToolResult, out Output, ok bool, err error) {
	sess, err := s.session(req.Session)
	if err != nil {
		return nil, Output{}, false, err
	}
	ctx, stop := s.waiting(ctx, req)
	err = do(ctx, sess)
	stop()
	if err == nil {
		return nil, Output{Refusals: []core.Refusal{}}, true, nil
	}
	var fe *core.FileError
	if !errors.As(err, &fe) {
		return nil, Output{}, false, err
	}
	r := core.Result{Stderr: fe.Stderr, ExitCode: fe.ExitCode, Refusal: fe.Refusal}
	if fe.Refusal != nil {
		r.Refusals = []core.Refusal{*fe.Refusal}
	}
	out = s.output(r, hintLine)
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: failureText(out)}}, IsError: true}, out, false, nil
}

// failureText is a failed file operation as the agent reads it: its stderr
// in the shell's voice, then what core.RefusalLines adds.
func failureText(out Output) string {
	return out.Stderr + core.RefusalLines(core.Result{Refusals: out.Refusals})
}

// done is a successful file tool's result: its text as stdout, capped,
// then the notes of the humans who allowed it, as a line's result says
// them ("allowed by a reviewer (ask ID)", "note from reviewer: NOTE").
func (s *Server) done(text, hint string, notes []core.ReviewerNote) (*sdk.CallToolResult, Output) {
	out := s.output(core.Result{Stdout: text, Notes: notes}, hint)
	said := out.Stdout + core.RefusalLines(core.Result{Notes: out.Notes})
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: said}}}, out
}

func (s *Server) readFile(ctx context.Context, req *sdk.CallToolRequest, in readFileInput) (*sdk.CallToolResult, ReadOutput, error) {
	var text core.FileText
	res, out, ok, err := s.fileCall(ctx, req, func(ctx context.Context, sess *core.Session) (err error) {
		text, err = sess.ReadFile(ctx, in.Path, core.FileWindow{Offset: max(in.Offset-1, 0), Limit: in.Limit})
		return err
	})
	if !ok {
		return res, ReadOutput{Output: out}, err
	}
	last := text.First + len(text.Lines) - 1
	body := text.Numbered()
	switch {
	case text.Total == 0:
		body = "(empty file)\n"
	case len(text.Lines) == 0:
		body = fmt.Sprintf("(the file has %d lines; offset %d is past its end)\n", text.Total, in.Offset)
		last = 0
	case last < text.Total:
		body += fmt.Sprintf("[lines %d-%d of %d; read on with offset %d]\n", text.First, last, text.Total, last+1)
	}
	res, out = s.done(body, hintRead, text.Notes)
	return res, ReadOutput{Output: out, Path: text.Path, FirstLine: text.First, LastLine: max(last, 0), TotalLines: text.Total}, nil
}

func (s *Server) writeFile(ctx context.Context, req *sdk.CallToolRequest, in writeFileInput) (*sdk.CallToolResult, WriteOutput, error) {
	var w core.FileWrite
	res, out, ok, err := s.fileCall(ctx, req, func(ctx context.Context, sess *core.Session) (err error) {
		w, err = sess.WriteFile(ctx, in.Path, in.Content)
		return err
	})
	if !ok {
		return res, WriteOutput{Output: out}, err
	}
	res, out = s.done(fmt.Sprintf("wrote %d bytes to %s\n", w.Bytes, w.Path), hintLine, w.Notes)
	return res, WriteOutput{Output: out, Path: w.Path, Bytes: w.Bytes, Created: w.Created}, nil
}

func (s *Server) editFile(ctx context.Context, req *sdk.CallToolRequest, in editFileInput) (*sdk.CallToolResult, EditOutput, error) {
	var e core.FileEdit
	res, out, ok, err := s.fileCall(ctx, req, func(ctx context.Context, sess *core.Session) (err error) {
		e, err = sess.EditFile(ctx, in.Path, core.Edit{Old: in.OldString, New: in.NewString, All: in.ReplaceAll})
		return err
	})
	if !ok {
		return res, EditOutput{Output: out}, err
	}
	res, out = s.done(fmt.Sprintf("replaced %d occurrence(s) in %s, the first at line %d\n", e.Replacements, e.Path, e.Line), hintLine, e.Notes)
	return res, EditOutput{Output: out, Path: e.Path, Replacements: e.Replacements, Line: e.Line}, nil
}

// listDir lists what the session can see: hidden entries are absent, as
// from ls (G-4.5); denied ones are listed and fail when opened (G-4.6).
func (s *Server) listDir(ctx context.Context, req *sdk.CallToolRequest, in listDirInput) (*sdk.CallToolResult, ListOutput, error) {
	var list []core.FileInfo
	res, out, ok, err := s.fileCall(ctx, req, func(ctx context.Context, sess *core.Session) (err error) {
		list, err = sess.ListDir(ctx, in.Path)
		return err
	})
	if !ok {
		return res, ListOutput{Output: out, Entries: []Entry{}}, err
	}
	var b strings.Builder
	entries := make([]Entry, 0, len(list))
	for _, e := range list {
		entry := Entry{Name: e.Name, Type: "file", Size: e.Size}
		name := e.Name
		switch {
		case e.Link:
			entry.Type = "link"
			name += " -> " + e.Target
		case e.Dir:
			entry.Type = "dir"
			name += "/"
		}
		entries = append(entries, entry)
		b.WriteString(name + "\n")
	}
	if len(list) == 0 {
		b.WriteString("(empty directory)\n")
	}
	res, out = s.done(b.String(), hintLine, nil)
	// The entries are capped with the text: no more of them than it shows.
	if out.Cut != nil {
		entries = entries[:min(len(entries), strings.Count(out.Stdout, "\n"))]
	}
	return res, ListOutput{Output: out, Entries: entries}, nil
}
