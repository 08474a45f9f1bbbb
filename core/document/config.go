package document

import (
	"time"

	"gatehouse/core/gate"
	"gatehouse/core/shell"
	"gatehouse/core/vfs"
)

// Config is a whole workspace as data: what a workspace document (G-1)
// describes, and what the Go API assembles from options (G-1.4).
type Config struct {
	// Path is the document's file name ("" when built in Go).
	Path string
	// source is the document's text as Load read it (Source).
	source   []byte
	Mounts   []vfs.MountSpec
	Profiles []gate.ProfileSpec
	// Default names the profile for sessions that name none (G-2.2).
	Default    string
	Limits     Limits
	AskTimeout time.Duration // 0 = wait until the line's context ends
}

// Limits bound one line (G-12.3). Zero values take the defaults.
type Limits = shell.Limits

// Source is the document's text as Load read it, nil for a Config built in
// Go or parsed from bytes: an amendment is refused once the file on disk
// is no longer this text.
func (c *Config) Source() []byte { return c.source }
