package gate

import (
	"fmt"
	"io"
	"path"
	"runtime"
	"strings"

	"gatehouse/core/vfs"
)

// Policy hooks (G-8.1), named as records and explanations cite them whatever
// the engine spells them (JavaScript: preCommand, preOps, preSession).
const (
	HookPreCommand = "pre_command"
	HookPreOps     = "pre_ops"
	HookPreSession = "pre_session"
)

// ScopeEnv is the scope of a refused environment write (pre_session): it is
// neither a whole command nor one of its operands.
const ScopeEnv = "env"

// NoHooksReason is why every command of a profile whose program defines no
// hook is denied (G-8.4): a program that judges nothing fails closed.
const NoHooksReason = "policy defines no hooks"

// Decision is what a coded policy says about one command, op or
// environment write (G-8.1). The zero Decision is "no opinion".
type Decision struct {
	Verb   Verb // VerbNone (no opinion), VerbDeny, or VerbAsk (pre_command only)
	Reason string
}

// NoOpinion lets the rest of the chain decide; a policy never grants
// (G-8.6).
func NoOpinion() Decision { return Decision{} }

// Refuse denies with a reason.
func Refuse(reason string) Decision { return Decision{Verb: VerbDeny, Reason: reason} }

// Question asks a host, with a reason; only pre_command may ask.
func Question(reason string) Decision { return Decision{Verb: VerbAsk, Reason: reason} }

// CommandContext is the line's facts as a policy sees them (G-8.2).
type CommandContext struct {
	Command string   // argv[0]
	Argv    []string // shared with the gate: read, never modify
	Line    string
	Paths   []string // the resolved operands
	Cwd     string
	Session SessionInfo
	Mounts  map[string]string // prefix -> "ro" | "rw"; shared: read, never modify

	files vfs.FS // the policies' view (no pre_ops), nil without WithFS
}

// Open reads a file the way a program's open() does (G-8.3): through the op
// door's rules (a hidden path fails like a missing one, a denied path with
// the refusal's reason) but past every pre_ops hook. A relative name
// resolves against Cwd. At most maxPolicyRead bytes are read.
func (c CommandContext) Open(name string) ([]byte, error) {
	return readForPolicy(c.files, c.Cwd, name)
}

// OpContext is what pre_ops sees: the command the op belongs to (empty
// when the door does not know it) and the op (G-8.1).
type OpContext struct {
	CommandContext
	Op OpInfo
}

// OpInfo is ctx["op"] of pre_ops.
type OpInfo struct {
	Name   string // vfs.Op* name: "open", "stat", "mkdir", ...
	Path   string
	Write  bool
	Prefix string // the mount holding Path; "" outside every mount
}

// SessionContext is what pre_session sees: the line's facts and the write.
type SessionContext struct {
	CommandContext
	Write EnvWriteInfo
}

// EnvWriteInfo is ctx["write"] of pre_session.
type EnvWriteInfo struct {
	Key   string
	Value string
	Verb  string // EnvSet, EnvExport or EnvUnset
}

// Environment write verbs (G-8.1).
const (
	EnvSet    = "set"
	EnvExport = "export"
	EnvUnset  = "unset"
)

// EnvWrite is one environment write the shell is about to make: `X=1`
// (set), `export X=1` and `declare -x` (export), `unset X` (unset); `local`
// and `read VAR` are sets.
type EnvWrite struct {
	Key, Value, Verb string
	Session          SessionInfo
	Line, Cwd        string
}

// PreCommand is a coded policy that judges commands (G-8.5).
type PreCommand interface {
	PreCommand(ctx CommandContext) Decision
}

// PreOps is a coded policy that judges filesystem ops at the op door. It
// runs per op: keep it cheap (G-6.3).
type PreOps interface {
	PreOps(ctx OpContext) Decision
}

// PreSession is a coded policy that judges environment writes.
type PreSession interface {
	PreSession(ctx SessionContext) Decision
}

// Named gives a coded policy the name records cite as their policy (G-7.7)
// and the place it was added, cited as their rule (G-1.3). WithPolicies
// names a bare value itself: by its Name() method if it has one, else by its
// Go type.
type Named struct {
	Name   string
	Source string
	Policy any // a PreCommand, PreOps and/or PreSession
}

// CompileOption adds to what Compile builds from the spec.
type CompileOption func(*compileOptions)

type compileOptions struct {
	files    *vfs.VFS
	policies []Named
	engines  []Engine
}

// WithEngines offers the languages a profile's program may be written in
// (G-8.3), by name; a later engine of the same name replaces an earlier
// one. Without it, a profile with a policy block does not compile.
func WithEngines(e ...Engine) CompileOption {
	return func(o *compileOptions) { o.engines = append(o.engines, e...) }
}

// WithFS lets policies read files (open(), CommandContext.Open) from v,
// through this profile's op door.
func WithFS(v *vfs.VFS) CompileOption {
	return func(o *compileOptions) { o.files = v }
}

// WithPolicies adds coded policies (G-8.5), consulted in order after the
// document's rules and before the profile's program (G-8.6). Each is a
// PreCommand, PreOps and/or PreSession, or a Named wrapping one.
func WithPolicies(p ...any) CompileOption {
	site := "go"
	if _, file, line, ok := runtime.Caller(1); ok {
		site = fmt.Sprintf("%s:%d", path.Base(file), line)
	}
	return func(o *compileOptions) {
		for _, one := range p {
			o.policies = append(o.policies, nameOf(one, site))
		}
	}
}

// nameOf wraps a coded policy with its record name and source.
func nameOf(p any, site string) Named {
	n, ok := p.(Named)
	if !ok {
		if np, isPtr := p.(*Named); isPtr && np != nil {
			n, ok = *np, true
		}
	}
	if !ok {
		n = Named{Policy: p}
	}
	if n.Name == "" {
		if namer, has := n.Policy.(interface{ Name() string }); has {
			n.Name = namer.Name()
		} else {
			n.Name = strings.TrimPrefix(fmt.Sprintf("%T", n.Policy), "*")
		}
	}
	if n.Source == "" {
		n.Source = site
	}
	return n
}

// maxPolicyRead bounds what one open() reads, so a policy judging a huge
// file cannot hold the gate for long.
const maxPolicyRead = 1 << 20

// readForPolicy reads name (relative to cwd) through the policies' view. Its
// errors read "open: PATH: TEXT", the same text for a hidden path as for a
// missing one (G-4.5).
func readForPolicy(files vfs.FS, cwd, name string) ([]byte, error) {
	if files == nil {
		return nil, fmt.Errorf("open: %s: no filesystem is attached to this profile", name)
	}
	abs := name
	if !strings.HasPrefix(abs, "/") {
		if cwd == "" {
			cwd = "/"
		}
		abs = path.Join(cwd, abs)
	}
	f, err := files.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("open: %s: %s", name, errorText(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPolicyRead))
	if err != nil {
		return nil, fmt.Errorf("open: %s: %s", name, errorText(err))
	}
	return data, nil
}

// isFileForPolicy reports whether name is a regular file the policies can
// see; a hidden path is as absent as a missing one.
func isFileForPolicy(files vfs.FS, cwd, name string) bool {
	if files == nil {
		return false
	}
	if !strings.HasPrefix(name, "/") {
		if cwd == "" {
			cwd = "/"
		}
		name = path.Join(cwd, name)
	}
	fi, err := files.Stat(name)
	return err == nil && fi.Mode().IsRegular()
}

// errorText is an error as GNU tools print it: a refusal's reason, or the
// errno's text with a capital first letter ("No such file or directory").
func errorText(err error) string {
	for {
		switch e := err.(type) {
		case *vfs.RefusedError:
			return e.Reason
		case interface{ Unwrap() error }:
			if inner := e.Unwrap(); inner != nil {
				err = inner
				continue
			}
		}
		text := err.Error()
		if text == "" {
			return text
		}
		return strings.ToUpper(text[:1]) + text[1:]
	}
}
