package document

import (
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"gatehouse/core/gate"
)

// exceptions reads an ask rule's except list: the exact commands the rule
// no longer asks about (gate.Exception). Each item is either a string of
// words ("rm /runbook/notes.txt", any directory) or a mapping with the
// command as a string or as an argv list (for words with blanks), an
// optional cwd the command must run in, and optional paths, the only ones
// it may name (its redirections' targets included):
//
//	except:
//	  - rm /runbook/old.log
//	  - {command: rm notes.txt, cwd: /runbook, paths: [/runbook/notes.txt]}
//	  - {argv: [rm, "my notes.txt"], cwd: /runbook}
func (p *documentParser) exceptions(f mappingEntry) ([]gate.Exception, error) {
	items, err := p.list(f.Value, f.Path)
	if err != nil {
		return nil, err
	}
	out := make([]gate.Exception, 0, len(items))
	for i, item := range items {
		key := documentIndexKey(f.Path, i)
		x := gate.Exception{Source: p.source(item)}
		if item.Kind == yaml.ScalarNode && !isYAMLNull(item) {
			x.Argv = strings.Fields(item.Value)
		} else if x, err = p.exceptionMapping(item, key, x); err != nil {
			return nil, err
		}
		if len(x.Argv) == 0 {
			return nil, p.fail(item, key, "an exception needs the command it lets through")
		}
		out = append(out, x)
	}
	return out, nil
}

func (p *documentParser) exceptionMapping(n *yaml.Node, key string, x gate.Exception) (gate.Exception, error) {
	if n.Kind != yaml.MappingNode {
		return x, p.fail(n, key, "want a command or a mapping with command or argv and cwd, got %s", describeYAMLNode(n))
	}
	fields, err := p.entries(n, key, "command", "argv", "cwd", "paths")
	if err != nil {
		return x, err
	}
	var commandKey *yaml.Node
	for _, f := range fields {
		switch f.Name {
		case "command", "argv":
			if commandKey != nil {
				return x, p.fail(f.Key, key, "an exception takes command or argv, not both")
			}
			commandKey = f.Key
			x.Argv, err = p.exceptionArgv(f)
		case "cwd":
			var dir string
			if dir, err = p.text(f.Value, f.Path); err == nil {
				if !strings.HasPrefix(dir, "/") {
					return x, p.fail(f.Value, f.Path, "cwd %q must be an absolute path", dir)
				}
				x.Cwd = path.Clean(dir)
			}
		case "paths":
			x.Paths, err = p.exceptionPaths(f)
		}
		if err != nil {
			return x, err
		}
	}
	return x, nil
}

// exceptionPaths reads the absolute paths an exception's command may name.
func (p *documentParser) exceptionPaths(f mappingEntry) ([]string, error) {
	items, err := p.list(f.Value, f.Path)
	if err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(items))
	for i, item := range items {
		text, err := p.text(item, documentIndexKey(f.Path, i))
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(text, "/") {
			return nil, p.fail(item, documentIndexKey(f.Path, i), "path %q must be absolute", text)
		}
		paths = append(paths, path.Clean(text))
	}
	return paths, nil
}

func (p *documentParser) exceptionArgv(f mappingEntry) ([]string, error) {
	if f.Name == "command" {
		text, err := p.text(f.Value, f.Path)
		return strings.Fields(text), err
	}
	items, err := p.list(f.Value, f.Path)
	if err != nil {
		return nil, err
	}
	argv := make([]string, len(items))
	for i, item := range items {
		if argv[i], err = p.text(item, documentIndexKey(f.Path, i)); err != nil {
			return nil, err
		}
	}
	return argv, nil
}
