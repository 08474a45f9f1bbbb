package core

import (
	"time"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// Config is a whole workspace as data: what a workspace document (G-1)
// describes, and what the Go API assembles from options (G-1.4).
type Config struct {
	// Path is the document's file name ("" when built in Go).
	Path     string
	Mounts   []vfs.MountSpec
	Profiles []gate.ProfileSpec
	// Default names the profile for sessions that name none (G-2.2).
	Default    string
	Limits     Limits
	AskTimeout time.Duration // 0 = wait until the line's context ends
}

// Limits bound one line (G-12.3). Zero values take the defaults.
type Limits struct {
	WallTime       time.Duration // default 30s
	OutputBytes    int64         // per stream; default 16 MiB
	Commands       int           // default 10,000
	BackgroundJobs int           // default 64
	Depth          int           // nesting depth; default 100
}

// WithDefaults fills zero fields with the G-12.3 defaults.
func (l Limits) WithDefaults() Limits {
	if l.WallTime <= 0 {
		l.WallTime = 30 * time.Second
	}
	if l.OutputBytes <= 0 {
		l.OutputBytes = 16 << 20
	}
	if l.Commands <= 0 {
		l.Commands = 10000
	}
	if l.BackgroundJobs <= 0 {
		l.BackgroundJobs = 64
	}
	if l.Depth <= 0 {
		l.Depth = 100
	}
	return l
}
