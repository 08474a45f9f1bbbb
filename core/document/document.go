// Package document reads a workspace document (G-1): the YAML that names a
// workspace's mounts, profiles, rules, policy programs and limits. Parse
// and Load turn it into a Config, every mistake an *Error at its place
// (FILE:LINE:COL); AddException edits the text of one ask rule for an
// amendment, leaving comments and layout as they were. It reads; core
// builds the workspace from what it read.
package document

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"gatehouse/core/vfs"
	"gatehouse/internal/lazy"
)

// Load reads a workspace document (G-1) from a file. Relative paths in
// the document (host mounts, policy files) resolve against the document's
// directory, wherever the process runs from.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load workspace: %w", err)
	}
	cfg, err := Parse(path, data)
	if cfg != nil {
		cfg.source = data
	}
	if err == nil && len(cfg.Mounts) == 0 && len(cfg.Profiles) == 0 && blankDocument(data) {
		// A file is written to be a workspace: nothing in it is a mistake
		// worth a word, not an empty workspace.
		return nil, &Error{File: path, Msg: emptyDocument}
	}
	return cfg, err
}

// emptyDocument is what an empty document file is told: a workspace needs
// at least a mount, and here is the smallest useful one.
const emptyDocument = `the document is empty; a workspace needs at least one mount. A minimal one:

  mounts:
    /work:
      files: {notes.txt: "hello\n"}
  profiles:
    agent:
      cwd: /work
      commands: {allow: [cat, ls, echo]}

(docs/workspace.md describes every key)`

// blankDocument reports whether data holds no YAML value at all (only
// blanks and comments), or an empty mapping or null.
func blankDocument(data []byte) bool {
	var v any
	if yaml.Unmarshal(data, &v) != nil {
		return false
	}
	m, isMap := v.(map[string]any)
	return v == nil || (isMap && len(m) == 0)
}

// Parse parses a workspace document (G-1.1). path is how the document
// is named in rule sources and errors ("FILE:LINE:COL"), and its directory is
// where relative paths resolve; host directories and policy files are checked
// and read now, so a document that loads is one that can start.
//
// Every error is a *Error naming the file, position and key.
func Parse(path string, data []byte) (*Config, error) {
	p := &documentParser{file: path}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, &Error{File: path, Msg: fmt.Sprintf("cannot resolve the document's directory: %v", err)}
	}
	p.dir = dir

	cfg := &Config{Path: path}
	root, err := p.decode(data)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return cfg, nil
	}
	top, err := p.entries(root, "", "mounts", "profiles", "limits", "ask_timeout")
	if err != nil {
		return nil, err
	}
	// Mounts first, whatever the key order: profiles refer to them.
	p.mountReadOnly = map[string]bool{"/tmp": false} // implicit unless mounted (G-5.7)
	for _, e := range top {
		if e.Name == "mounts" {
			if cfg.Mounts, err = p.mounts(e); err != nil {
				return nil, err
			}
		}
	}
	for _, e := range top {
		switch e.Name {
		case "profiles":
			cfg.Profiles, cfg.Default, err = p.profiles(e)
		case "limits":
			cfg.Limits, err = p.limits(e)
		case "ask_timeout":
			cfg.AskTimeout, err = p.duration(e.Value, e.Path)
		}
		if err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// yamlLineError is compiled when first needed, not at start-up: most
// processes never see a YAML error.
var yamlLineError = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) }}

// yamlParserProblems are the messages of yaml.v3's parser (as opposed to its
// scanner). yaml.v3 v3.0.1 reports their line 0-based (the scanner's it
// corrects), so the line is shifted to point at the unfinished construct.
var yamlParserProblems = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"did not find expected <stream-start>":   true,
		"did not find expected <document start>": true,
		"found undefined tag handle":             true,
		"did not find expected node content":     true,
		"did not find expected '-' indicator":    true,
		"did not find expected key":              true,
		"did not find expected ',' or ']'":       true,
		"did not find expected ',' or '}'":       true,
		"found duplicate %YAML directive":        true,
		"found incompatible YAML document":       true,
		"found duplicate %TAG directive":         true,
	}
}}

// decode parses the YAML text into its root node; nil means an empty document.
func (p *documentParser) decode(data []byte) (root *yaml.Node, err error) {
	// The YAML parser is third-party code fed untrusted text; a panic in it
	// must surface as a load error, not take the process down.
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &Error{File: p.file, Msg: fmt.Sprintf("YAML parser failed: %v", r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, p.yamlError(err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		at := &extra
		if len(extra.Content) > 0 {
			at = extra.Content[0]
		}
		return nil, p.fail(at, "", "a workspace file holds one YAML document; found a second one")
	case !errors.Is(err, io.EOF):
		return nil, p.yamlError(err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	root, err = p.deref(doc.Content[0], "")
	if err != nil || isYAMLNull(root) {
		return nil, err
	}
	return root, nil
}

// yamlError turns a yaml.v3 syntax error ("yaml: line 3: …") into a
// Error; yaml.v3 reports a line but no column.
func (p *documentParser) yamlError(err error) error {
	msg := err.Error()
	if m := yamlLineError.Get().FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if yamlParserProblems.Get()[m[2]] {
			line++
		}
		return &Error{File: p.file, Line: line, Msg: "invalid YAML: " + m[2]}
	}
	return &Error{File: p.file, Msg: "invalid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

// mounts reads the top-level "mounts" mapping, in document order.
func (p *documentParser) mounts(e mappingEntry) ([]vfs.MountSpec, error) {
	entries, err := p.entries(e.Value, e.Path)
	if err != nil {
		return nil, err
	}
	specs := make([]vfs.MountSpec, 0, len(entries))
	for _, m := range entries {
		if err := p.checkMountPrefix(m.Key, e.Path); err != nil {
			return nil, err
		}
		spec, err := p.mount(m)
		if err != nil {
			return nil, err
		}
		p.mountReadOnly[spec.Prefix] = spec.ReadOnly
		specs = append(specs, spec)
	}
	return specs, nil
}

func (p *documentParser) checkMountPrefix(k *yaml.Node, key string) error {
	prefix := k.Value
	switch {
	case !strings.HasPrefix(prefix, "/"):
		return p.fail(k, key, "mount prefix %q must be an absolute path like /%s", prefix, strings.TrimLeft(prefix, "./"))
	case prefix == "/":
		return p.fail(k, key, `mount prefix "/" is not allowed: the root lists the mounts; mount under a name like /data`)
	case path.Clean(prefix) != prefix:
		return p.fail(k, key, "mount prefix %q is not clean; write %q", prefix, path.Clean(prefix))
	case strings.ContainsAny(prefix, `*?[\`):
		return p.fail(k, key, "mount prefix %q must not contain glob characters", prefix)
	case prefix == "/dev" || strings.HasPrefix(prefix, "/dev/"):
		return p.fail(k, key, "mount prefix %q is reserved for the workspace's devices (/dev/null and friends)", prefix)
	}
	return nil
}

// mount reads one mount's body; null (`/scratch:`) is a default memory mount.
func (p *documentParser) mount(m mappingEntry) (vfs.MountSpec, error) {
	spec := vfs.MountSpec{Prefix: m.Name}
	if isYAMLNull(m.Value) {
		return spec, nil
	}
	fields, err := p.entries(m.Value, m.Path, "mode", "source", "files", "size", "quota", "persist")
	if err != nil {
		return spec, err
	}
	var filesKey, sizeKey, quotaKey, persistKey *yaml.Node
	for _, f := range fields {
		switch f.Name {
		case "mode":
			if spec.ReadOnly, err = p.mode(f.Value, f.Path); err != nil {
				return spec, err
			}
		case "source":
			if spec.HostDir, err = p.mountSource(f.Value, f.Path); err != nil {
				return spec, err
			}
		case "files":
			filesKey = f.Key
			if spec.Files, err = p.seedFiles(f); err != nil {
				return spec, err
			}
		case "size":
			sizeKey = f.Key
			if spec.Size, err = p.byteSize(f.Value, f.Path); err != nil {
				return spec, err
			}
		case "quota":
			quotaKey = f.Key
			if spec.Quota, err = p.byteSize(f.Value, f.Path); err != nil {
				return spec, err
			}
		case "persist":
			persistKey = f.Key
			persist, err := p.boolean(f.Value, f.Path)
			if err != nil {
				return spec, err
			}
			spec.Ephemeral = !persist
		}
	}
	if spec.HostDir != "" && persistKey != nil {
		return spec, p.fail(persistKey, m.Path, "persist is for memory mounts; a host directory keeps its own files")
	}
	if spec.HostDir != "" && filesKey != nil {
		return spec, p.fail(filesKey, m.Path, "files seed memory mounts only; this mount's source is a host directory")
	}
	if spec.HostDir != "" && sizeKey != nil {
		return spec, p.fail(sizeKey, m.Path, "size bounds memory mounts only; a host mount takes a write quota")
	}
	if spec.HostDir == "" && quotaKey != nil {
		return spec, p.fail(quotaKey, m.Path, "quota bounds host mounts only; a memory mount takes a size")
	}
	return spec, nil
}

// boolean reads true or false.
func (p *documentParser) boolean(n *yaml.Node, key string) (bool, error) {
	text, err := p.text(n, key)
	if err != nil {
		return false, err
	}
	switch text {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, p.fail(n, key, "want true or false, got %q", text)
}

// mode reads "rw" or "ro" and reports whether it is read-only.
func (p *documentParser) mode(n *yaml.Node, key string) (bool, error) {
	text, err := p.text(n, key)
	if err != nil {
		return false, err
	}
	switch text {
	case "rw":
		return false, nil
	case "ro":
		return true, nil
	}
	return false, p.fail(n, key, "mode must be rw or ro, got %q", text)
}

// mountSource reads "memory" (returns "") or "host:DIR" (returns DIR as an
// absolute, existing directory).
func (p *documentParser) mountSource(n *yaml.Node, key string) (string, error) {
	text, err := p.text(n, key)
	if err != nil {
		return "", err
	}
	if text == "memory" {
		return "", nil
	}
	dir, ok := strings.CutPrefix(text, "host:")
	if !ok {
		return "", p.fail(n, key, "source must be memory or host:DIR, got %q", text)
	}
	if dir == "" {
		return "", p.fail(n, key, "host: needs a directory, like host:./repo")
	}
	dir = p.hostPath(dir)
	info, err := os.Stat(dir)
	switch {
	case err != nil:
		return "", p.fail(n, key, "host directory %s: %v", dir, documentPathErrno(err))
	case !info.IsDir():
		return "", p.fail(n, key, "host directory %s is not a directory", dir)
	}
	return dir, nil
}

// hostPath makes a path from the document absolute, against the document's
// directory rather than the process's working directory.
func (p *documentParser) hostPath(name string) string {
	if !filepath.IsAbs(name) {
		name = filepath.Join(p.dir, name)
	}
	return filepath.Clean(name)
}

func documentPathErrno(err error) error {
	var pathErr *os.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err
	}
	return err
}

// seedFiles reads a memory mount's seed content: paths inside the mount to
// file text.
func (p *documentParser) seedFiles(f mappingEntry) (map[string]string, error) {
	entries, err := p.entries(f.Value, f.Path)
	if err != nil {
		return nil, err
	}
	files := make(map[string]string, len(entries))
	for _, e := range entries {
		name := e.Name
		if name == "" || strings.HasPrefix(name, "/") || !isSeedFilePath(name) {
			return nil, p.fail(e.Key, f.Path, "file path %q must be relative to the mount and clean, like notes/a.md", name)
		}
		if files[name], err = p.optionalText(e.Value, e.Path); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// validRelativePath reports whether name is slash-separated with no empty,
// "." or ".." elements, so a seed file cannot land outside its mount.
func isSeedFilePath(name string) bool {
	for _, elem := range strings.Split(name, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
	}
	return true
}

// limits reads the per-line limits (G-12.3); omitted fields stay zero and
// take their defaults later.
func (p *documentParser) limits(e mappingEntry) (Limits, error) {
	var l Limits
	fields, err := p.entries(e.Value, e.Path, "wall_time", "output_bytes", "commands", "background_jobs", "depth", "memory", "tool_output")
	if err != nil {
		return l, err
	}
	for _, f := range fields {
		switch f.Name {
		case "wall_time":
			l.WallTime, err = p.duration(f.Value, f.Path)
		case "output_bytes":
			l.OutputBytes, err = p.byteSize(f.Value, f.Path)
		case "commands":
			l.Commands, err = p.count(f.Value, f.Path)
		case "background_jobs":
			l.BackgroundJobs, err = p.count(f.Value, f.Path)
		case "depth":
			l.Depth, err = p.count(f.Value, f.Path)
		case "memory":
			l.Memory, err = p.byteSize(f.Value, f.Path)
		case "tool_output":
			l.ToolOutput, err = p.count(f.Value, f.Path)
		}
		if err != nil {
			return l, err
		}
	}
	return l, nil
}

// duration reads a positive Go duration ("30s", "1m30s", "100ms").
func (p *documentParser) duration(n *yaml.Node, key string) (time.Duration, error) {
	text, err := p.text(n, key)
	if err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(text)
	if err != nil || d <= 0 {
		return 0, p.fail(n, key, "want a positive duration like 30s, 100ms or 5m, got %q", text)
	}
	return d, nil
}

// count reads a positive integer.
func (p *documentParser) count(n *yaml.Node, key string) (int, error) {
	text, err := p.text(n, key)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(text, 10, 0)
	if err != nil || v <= 0 {
		return 0, p.fail(n, key, "want a positive whole number, got %q", text)
	}
	return int(v), nil
}

// documentByteSize is compiled when a document first gives a size.
var documentByteSize = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]+)\s*(B|KiB|MiB|GiB)?$`) }}

// byteSize reads a positive size: a plain number of bytes or one with a
// KiB/MiB/GiB suffix ("16MiB").
func (p *documentParser) byteSize(n *yaml.Node, key string) (int64, error) {
	text, err := p.text(n, key)
	if err != nil {
		return 0, err
	}
	bad := p.fail(n, key, "want a positive size like 16MiB, 512KiB or 1048576, got %q", text)
	m := documentByteSize.Get().FindStringSubmatch(text)
	if m == nil {
		return 0, bad
	}
	v, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil || v <= 0 {
		return 0, bad
	}
	unit := map[string]int64{"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[m[2]]
	if v > math.MaxInt64/unit {
		return 0, p.fail(n, key, "size %q is too large", text)
	}
	return v * unit, nil
}
