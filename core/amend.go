package core

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"gatehouse/core/decisions"
	"gatehouse/core/document"
	"gatehouse/core/gate"
	"gatehouse/internal/hostfile"
	"gatehouse/internal/lazy"
)

// Amendments: "allow, and add a rule". A host that answers an ask may also
// want the command never to ask again. Asks beat allow (G-3.1), so the only
// change that stops a question is one to the ask rule that put it, and the
// narrowest such change is an exception for exactly the asked command:
//
//	ask:
//	  - reason: removal needs sign-off
//	    command: rm
//	    except: [{command: rm notes.txt, cwd: /runbook}]
//
// The exception is the whole argv, word for word, never a prefix (`rm
// notes.txt -rf /` still asks), pinned to the directory the command ran in
// whenever one of its words could be a relative path. Nothing else about the
// rule changes, no other rule is touched, and no allow entry is written. The
// edit goes into the document's text at the rule's position (comments and
// layout stay), and the running workspace takes it at once (gate.Waive).

// ErrNoAmendment says no document change can be proposed for an ask: it
// was put by a policy program, the workspace has no document, the command
// is a bare interpreter or wrapper, or the rule is written in a way this
// editor will not touch. The wrapped message says which.
var ErrNoAmendment = document.ErrNoAmendment

// ErrDocumentChanged says the document on disk is no longer the one an
// amendment was computed from; propose again.
var ErrDocumentChanged = document.ErrChanged

// neverExcepted are commands whose bare form hands control to something
// the exception cannot see (a program on stdin, the environment, another
// command): an exception for `python` alone would waive every script piped
// into it. With operands they are as exact as any other command.
var neverExcepted = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"python": true, "python3": true, "bash": true, "sh": true, "env": true,
		"xargs": true, "eval": true, "find": true, "timeout": true, "nice": true,
		"nohup": true, "command": true, "builtin": true, "exec": true, "source": true,
		".": true, "time": true, "node": true, "perl": true, "ruby": true,
	}
}}

// Amendment is a proposed change to the workspace document that would have
// let one asked command run without asking.
type Amendment struct {
	AskID     string
	Document  string // the document's path
	Profile   string
	Mount     string // "" for a profile-level rule, else the mount prefix
	RuleIndex int    // index in that level's ask list
	Rule      string // the rule's source in the running workspace
	Reason    string
	Exception gate.Exception
	// Diff is the change as a unified diff of the document.
	Diff string
	// After is what the gate says of the asked command once the document is
	// amended: "run", or why it would still not run (another rule asks).
	After string

	before, after []byte
}

// ProposeAmendment computes the narrowest document change that would have
// covered rec (pending or answered): an exception for exactly its command
// on the ask rule that put it. It writes nothing.
func (ws *Workspace) ProposeAmendment(ctx context.Context, rec decisions.Record) (*Amendment, error) {
	if ws.cfg.Path == "" || ws.document == "" {
		return nil, fmt.Errorf("%w: the workspace was built in Go, not from a document", ErrNoAmendment)
	}
	if len(rec.Argv) == 0 {
		return nil, fmt.Errorf("%w: the ask has no command", ErrNoAmendment)
	}
	if len(rec.Argv) == 1 && neverExcepted.Get()[path.Base(rec.Argv[0])] {
		return nil, fmt.Errorf("%w: a bare %s runs whatever it is handed; answer it once instead", ErrNoAmendment, rec.Argv[0])
	}
	if row, err := ws.ledger.GetSession(ctx, rec.SessionID); err == nil && filepath.IsAbs(row.Workspace) && row.Workspace != ws.document {
		return nil, fmt.Errorf("%w: the ask's session was opened from %s, not from %s", ErrNoAmendment, row.Workspace, ws.document)
	}
	prof, err := ws.profileOfSession(ctx, rec.SessionID)
	if err != nil {
		return nil, err
	}
	a, rule, err := locateAskRule(prof.Spec(), rec)
	if err != nil {
		return nil, err
	}
	// The document the session was opened from, by its absolute path,
	// whatever directory this process names it from.
	a.AskID, a.Document = rec.ID, ws.document
	a.Exception = exceptionFor(rec)

	before, err := os.ReadFile(a.Document)
	if err != nil {
		return nil, err
	}
	if loaded := ws.loadedDocument(); loaded != nil && !bytes.Equal(before, loaded) {
		return nil, fmt.Errorf("%w: %s is no longer the text this workspace loaded; restart it on the new text and ask again", ErrDocumentChanged, a.Document)
	}
	place := document.RulePlace{Profile: a.Profile, Mount: a.Mount, Index: a.RuleIndex, Source: a.Rule}
	after, err := document.AddException(a.Document, before, place, rule, a.Exception)
	if err != nil {
		return nil, err
	}
	a.before, a.after = before, after
	a.Diff = document.UnifiedDiff(filepath.Base(a.Document), string(before), string(after))
	a.After, err = ws.judgeAmended(a, rec)
	if err != nil {
		return nil, err
	}
	return a, nil
}

// ApplyAmendment writes the amended document (only if it is still the one
// the amendment was computed from) and waives the asked command in the
// running workspace, for every session of the profile at once. Answering
// the ask itself is the caller's business.
func (ws *Workspace) ApplyAmendment(a *Amendment) error {
	// Another process amending the same document at once waits for this
	// one, then finds the document changed.
	err := hostfile.ReplaceIf(a.Document, a.before, a.after)
	if errors.Is(err, hostfile.ErrChanged) {
		return ErrDocumentChanged
	}
	if err != nil {
		return err
	}
	ws.docMu.Lock()
	ws.loaded = a.after // the running rules are now this text's
	ws.docMu.Unlock()
	prof, ok := ws.profiles[a.Profile]
	if !ok || !prof.Waive(a.Rule, a.Exception) {
		return fmt.Errorf("the document is amended, but rule %s is not in the running profile %q: restart to apply it", a.Rule, a.Profile)
	}
	return nil
}

// loadedDocument is the document's text the running rules were built
// from, amendments applied (nil when the workspace was not loaded from a
// file).
func (ws *Workspace) loadedDocument() []byte {
	ws.docMu.Lock()
	defer ws.docMu.Unlock()
	return ws.loaded
}

// profileOfSession is the compiled profile a session (live here, or known
// only to the ledger) is bound to.
func (ws *Workspace) profileOfSession(ctx context.Context, id string) (*gate.Profile, error) {
	name := ""
	if s, ok := ws.Session(id); ok {
		name = s.ProfileName()
	} else {
		row, err := ws.ledger.GetSession(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("session %s: %w", id, err)
		}
		name = row.Profile
	}
	if name == "" {
		return nil, fmt.Errorf("%w: session %s has no profile", ErrNoAmendment, id)
	}
	prof, ok := ws.profiles[name]
	if !ok {
		return nil, fmt.Errorf("%w: profile %q is not in this workspace", ErrNoAmendment, name)
	}
	return prof, nil
}

// locateAskRule finds the written ask rule that put rec, by its source; a
// record from another process may spell the document's path differently,
// so the position decides when the file's base name agrees.
func locateAskRule(spec gate.ProfileSpec, rec decisions.Record) (*Amendment, gate.Rule, error) {
	same := func(source string) bool {
		if source == rec.Rule {
			return true
		}
		file, pos, ok := splitSource(source)
		rfile, rpos, rok := splitSource(rec.Rule)
		return ok && rok && pos == rpos && filepath.Base(file) == filepath.Base(rfile)
	}
	for i, r := range spec.Ask {
		if same(r.Source) {
			return &Amendment{Profile: spec.Name, RuleIndex: i, Rule: r.Source, Reason: r.Reason}, r, nil
		}
	}
	for _, prefix := range slices.Sorted(maps.Keys(spec.Mounts)) {
		for i, r := range spec.Mounts[prefix].Ask {
			if same(r.Source) {
				return &Amendment{Profile: spec.Name, Mount: prefix, RuleIndex: i, Rule: r.Source, Reason: r.Reason}, r, nil
			}
		}
	}
	who := rec.Policy
	if who == "" {
		who = rec.Rule
	}
	return nil, gate.Rule{}, fmt.Errorf("%w: the ask was put by %s, not by an ask rule of profile %q; change that instead", ErrNoAmendment, who, spec.Name)
}

// splitSource splits "FILE:LINE:COL" into FILE and "LINE:COL".
func splitSource(source string) (string, string, bool) {
	i := strings.LastIndexByte(source, ':')
	if i < 0 {
		return "", "", false
	}
	j := strings.LastIndexByte(source[:i], ':')
	if j < 0 {
		return "", "", false
	}
	return source[:j], source[j+1:], true
}

// exceptionFor is the exception for exactly rec's command: its argv, the
// paths the record showed (its redirections' targets included), so that
// the same words aimed elsewhere or at a link still ask, and its directory unless every word after the command
// is an option or an absolute path (then the command means the same thing
// from anywhere).
func exceptionFor(rec decisions.Record) gate.Exception {
	x := gate.Exception{Argv: slices.Clone(rec.Argv)}
	for _, p := range rec.Paths {
		if p = path.Clean(p); !slices.Contains(x.Paths, p) {
			x.Paths = append(x.Paths, p)
		}
	}
	for _, word := range rec.Argv[1:] {
		if !strings.HasPrefix(word, "-") && !strings.HasPrefix(word, "/") {
			x.Cwd = path.Clean(rec.Cwd)
			break
		}
	}
	return x
}

// judgeAmended compiles the amended profile and judges the asked command
// with it, so the human sees whether the change is enough on its own.
func (ws *Workspace) judgeAmended(a *Amendment, rec decisions.Record) (string, error) {
	cfg, err := ParseDocument(a.Document, a.after)
	if err != nil {
		return "", err
	}
	var spec *gate.ProfileSpec
	for i := range cfg.Profiles {
		if cfg.Profiles[i].Name == a.Profile {
			spec = &cfg.Profiles[i]
		}
	}
	if spec == nil {
		return "", fmt.Errorf("%w: profile %q is gone from the document", ErrDocumentChanged, a.Profile)
	}
	var mounts []gate.Mount
	for _, m := range ws.fs.Mounts() {
		mounts = append(mounts, gate.Mount{Prefix: m.Prefix, ReadOnly: m.ReadOnly})
	}
	prof, err := gate.Compile(*spec, mounts, ws.opts.compileOptions(ws.fs)...)
	if err != nil {
		return "", err
	}
	cmd := gate.Command{Argv: rec.Argv, Cwd: rec.Cwd, Line: rec.Line,
		Session: gate.SessionInfo{ID: rec.SessionID, AgentID: rec.AgentID, Profile: a.Profile}}
	for _, p := range rec.Paths {
		cmd.Operands = append(cmd.Operands, gate.Operand{Arg: p, Path: p})
	}
	v := prof.Judge(cmd)
	if v.Outcome == gate.Run || v.Outcome == gate.Hidden || v.Refusal == nil {
		return "run", nil
	}
	reason := v.Refusal.Reason
	if reason == "" {
		reason = "no reason given"
	}
	return fmt.Sprintf("still %s: %s (%s)", v.Outcome, reason, v.Refusal.Rule), nil
}
