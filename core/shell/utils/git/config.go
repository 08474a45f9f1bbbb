package git

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	fconfig "github.com/go-git/go-git/v5/plumbing/format/config"
)

func runConfig(g *cmd, args []string) error {
	scope := ""
	action := ""
	var rest []string
	for _, a := range args {
		switch a {
		case "--global", "--local":
			scope = strings.TrimPrefix(a, "--")
		case "--system":
			return &exitError{msg: "git: 'config --system' is not supported here\n", code: 1}
		case "--get", "--get-all", "--unset", "--unset-all", "--list", "-l", "--add", "--replace-all":
			action = strings.TrimPrefix(strings.TrimPrefix(a, "--"), "-")
			if action == "l" {
				action = "list"
			}
		default:
			if strings.HasPrefix(a, "-") {
				return unknownOption("config", a)
			}
			rest = append(rest, a)
		}
	}
	var gitDir string
	var r *repo
	if scope != "global" {
		var err error
		if r, err = g.findRepo(); err == nil {
			gitDir = r.gitDir
		} else if scope == "local" || (action != "list" && action != "get" && action != "get-all" && len(rest) != 1) {
			return fatalf("not in a git directory")
		}
	}
	cfg := g.loadConfig(gitDir)
	if action == "" {
		switch len(rest) {
		case 1:
			action = "get"
		case 2:
			action = "set"
		default:
			return usageErr("usage: git config [<options>]\n")
		}
	}
	switch action {
	case "list":
		return g.configList(cfg, scope)
	case "get", "get-all":
		if len(rest) != 1 {
			return usageErr("error: wrong number of arguments, should be 1\n")
		}
		return g.configGet(cfg, scope, rest[0], action == "get-all")
	case "set", "add", "replace-all":
		if len(rest) != 2 {
			return usageErr("error: wrong number of arguments, should be 2\n")
		}
		return g.configSet(cfg, scope, rest[0], rest[1], action == "add")
	case "unset", "unset-all":
		if len(rest) != 1 {
			return usageErr("error: wrong number of arguments, should be 1\n")
		}
		return g.configUnset(cfg, scope, rest[0])
	}
	return nil
}

// checkKey is git's key validation: a section and a name.
func checkKey(key string) error {
	if !strings.Contains(key, ".") || strings.HasPrefix(key, ".") {
		return &exitError{msg: "error: key does not contain a section: " + key + "\n", code: 1}
	}
	if strings.HasSuffix(key, ".") {
		return &exitError{msg: "error: key does not contain variable name: " + key + "\n", code: 1}
	}
	return nil
}

// files are the configuration files a scope reads, in order.
func (c *configSet) files(scope string) []*fconfig.Config {
	switch scope {
	case "global":
		return []*fconfig.Config{c.global}
	case "local":
		return []*fconfig.Config{c.local}
	}
	return []*fconfig.Config{c.global, c.local}
}

func (g *cmd) configGet(cfg *configSet, scope, key string, all bool) error {
	if err := checkKey(key); err != nil {
		return err
	}
	section, sub, name := splitKey(key)
	var vals []string
	for _, f := range cfg.files(scope) {
		vals = append(vals, optionValues(f, section, sub, name)...)
	}
	if v, ok := g.overrides[strings.ToLower(key)]; ok && scope == "" {
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		return exitStatus(1)
	}
	if !all {
		vals = vals[len(vals)-1:]
	}
	for _, v := range vals {
		fmt.Fprintln(g.out, v)
	}
	return nil
}

func (g *cmd) configList(cfg *configSet, scope string) error {
	for _, f := range cfg.files(scope) {
		for _, s := range f.Sections {
			for _, o := range s.Options {
				fmt.Fprintf(g.out, "%s.%s=%s\n", strings.ToLower(s.Name), strings.ToLower(o.Key), o.Value)
			}
			for _, ss := range s.Subsections {
				for _, o := range ss.Options {
					fmt.Fprintf(g.out, "%s.%s.%s=%s\n", strings.ToLower(s.Name), ss.Name, strings.ToLower(o.Key), o.Value)
				}
			}
		}
	}
	keys := make([]string, 0, len(g.overrides))
	for k := range g.overrides {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if scope == "" {
			fmt.Fprintf(g.out, "%s=%s\n", k, g.overrides[k])
		}
	}
	return nil
}

// target is the file a write goes to: the repository's, or the global
// one with --global.
func (c *configSet) target(scope string) (*fconfig.Config, string, error) {
	if scope == "global" {
		if c.globalPath == "" {
			return nil, "", fatalf("$HOME not set")
		}
		return c.global, c.globalPath, nil
	}
	if c.localPath == "" {
		return nil, "", fatalf("not in a git directory")
	}
	return c.local, c.localPath, nil
}

func (g *cmd) configSet(cfg *configSet, scope, key, value string, add bool) error {
	if err := checkKey(key); err != nil {
		return err
	}
	f, p, err := cfg.target(scope)
	if err != nil {
		return err
	}
	section, sub, name := splitKey(key)
	if add {
		f.AddOption(section, sub, name, value)
	} else {
		f.SetOption(section, sub, name, value)
	}
	return g.writeConfig(f, p)
}

func (g *cmd) configUnset(cfg *configSet, scope, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	f, p, err := cfg.target(scope)
	if err != nil {
		return err
	}
	section, sub, name := splitKey(key)
	if len(optionValues(f, section, sub, name)) == 0 {
		return exitStatus(5)
	}
	for _, s := range f.Sections {
		if !strings.EqualFold(s.Name, section) {
			continue
		}
		if sub == "" {
			s.RemoveOption(name)
			continue
		}
		for _, ss := range s.Subsections {
			if ss.Name == sub {
				ss.RemoveOption(name)
			}
		}
	}
	return g.writeConfig(f, p)
}

// writeConfig writes a configuration file through a .lock, as git does.
func (g *cmd) writeConfig(f *fconfig.Config, p string) error {
	var buf bytes.Buffer
	if err := fconfig.NewEncoder(&buf).Encode(f); err != nil {
		return fatalf("%s", errText(err))
	}
	lock := p + ".lock"
	if err := writeFile(g.gitfs, lock, buf.Bytes(), 0o644); err != nil {
		return &exitError{msg: fmt.Sprintf("error: could not lock config file %s: %s\n", p, errText(err)), code: 4}
	}
	if err := g.gitfs.Rename(lock, p); err != nil {
		g.gitfs.Remove(lock)
		return &exitError{msg: fmt.Sprintf("error: could not write config file %s: %s\n", p, errText(err)), code: 4}
	}
	return nil
}
