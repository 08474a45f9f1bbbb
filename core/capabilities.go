package core

import (
	"slices"

	"gatehouse/core/gate"
	"gatehouse/core/shell"
)

// Capabilities is what a session of one profile can use, for doors that
// describe it to an agent before its first line (the MCP server's tool
// list and the bash tool's description), so the agent does not spend turns
// finding out.
type Capabilities struct {
	// Profile is the profile's name ("" = unrestricted, G-2.2).
	Profile string
	// Commands are the commands that exist (G-3.1), sorted: what
	// `compgen -c` lists in a session.
	Commands []string
	// Mounts are the mount points the session sees (hidden ones left
	// out, G-4.5), sorted by prefix.
	Mounts []MountView
	// FileOps maps each file operation of the Session API (OpReadFile,
	// OpWriteFile, OpEditFile, OpListDir, OpStatFile) to whether the
	// profile lets it run at all: false when a rule or policy denies the
	// whole operation, or, for writes, when no mount the session sees is
	// writable. Paths are judged when the operation runs.
	FileOps map[string]bool
}

// MountView is one mount as a session of a profile sees it.
type MountView struct {
	Prefix string
	// Mode is "rw" or "ro" after the profile's narrowing (G-5.1).
	Mode string
	// Partial: the mount point itself is hidden and only shown subtrees
	// below it exist (G-4.7).
	Partial bool
}

// Capabilities reports what a session of the named profile ("" = the
// default profile, G-2.2) can use. Errors: an unknown profile, as for
// CreateSession.
func (ws *Workspace) Capabilities(profile string) (Capabilities, error) {
	prof, name, err := ws.resolveProfile(profile)
	if err != nil {
		return Capabilities{}, err
	}
	c := Capabilities{Profile: name, Commands: shell.Commands(prof), FileOps: map[string]bool{}}
	writable := false
	for _, m := range prof.Mounts() {
		if m.Prefix == "/dev" {
			continue // devices, not a place to keep files
		}
		info := prof.PathInfo(m.Prefix)
		if info.Visibility == gate.PathHidden {
			continue
		}
		mode := "rw"
		if info.ReadOnly || m.ReadOnly {
			mode = "ro"
		}
		writable = writable || mode == "rw" || info.Visibility == gate.PathTraversable
		c.Mounts = append(c.Mounts, MountView{Prefix: m.Prefix, Mode: mode, Partial: info.Visibility == gate.PathTraversable})
	}
	slices.SortFunc(c.Mounts, func(a, b MountView) int {
		switch {
		case a.Prefix < b.Prefix:
			return -1
		case a.Prefix > b.Prefix:
			return 1
		}
		return 0
	})
	for _, op := range []string{OpReadFile, OpWriteFile, OpEditFile, OpListDir, OpStatFile} {
		v := prof.Judge(gate.Command{Argv: []string{op}, Cwd: prof.Cwd(), FileOp: true, Partial: true,
			Session: gate.SessionInfo{Profile: name}})
		usable := !(v.Outcome == gate.Deny && v.Refusal != nil && v.Refusal.Scope == gate.ScopeCommand)
		if op == OpWriteFile || op == OpEditFile {
			usable = usable && writable
		}
		c.FileOps[op] = usable
	}
	return c, nil
}
