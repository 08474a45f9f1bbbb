package core

import (
	"gatehouse/core/document"
	"gatehouse/core/shell"
)

// Config is a whole workspace as data: what a workspace document (G-1)
// describes, and what the Go API assembles from options (G-1.4). The
// document package reads it from YAML.
type Config = document.Config

// Limits bound one line (G-12.3). Zero values take the defaults.
type Limits = shell.Limits

// DocumentError is a mistake in a workspace document, at its place
// (FILE:LINE:COL) (G-1.3).
type DocumentError = document.Error

// LoadConfig reads a workspace document (G-1) from a file. Relative paths in
// the document (host mounts, policy files) resolve against the document's
// directory, wherever the process runs from.
func LoadConfig(path string) (*Config, error) { return document.Load(path) }

// ParseDocument reads a workspace document (G-1) from data; path names it
// in errors and anchors its relative paths.
func ParseDocument(path string, data []byte) (*Config, error) { return document.Parse(path, data) }
