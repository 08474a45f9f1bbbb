package git

import (
	"bytes"
	"regexp"
	"strings"

	"gatehouse/core/shell/utils"
)

// pickaxe is log's -S and -G: a commit is shown when one of its changes
// alters how many times a string (or, with --pickaxe-regex, a regexp)
// occurs in the file (-S), or adds or removes a line a regexp matches
// (-G). Only the files that match are shown, unless --pickaxe-all.
// Merges have no changes of their own here, so no merge is shown.
type pickaxe struct {
	needle []byte         // -S's string
	re     *regexp.Regexp // -G's, or -S's with --pickaxe-regex
	grep   bool           // -G
	all    bool           // --pickaxe-all
}

// pickaxeArg reads -S/-G in their joined or separate forms; ok says
// whether a was one of them (consumed tells whether its value was the
// next argument).
func (o *logOptions) pickaxeArg(a string, next []string) (ok, consumed bool, err error) {
	var kind, v string
	switch {
	case a == "-S" || a == "-G":
		if len(next) == 0 {
			return true, false, usageErr("error: switch `" + a[1:] + "' requires a value\n")
		}
		kind, v, consumed = a, next[0], true
	case strings.HasPrefix(a, "-S") || strings.HasPrefix(a, "-G"):
		kind, v = a[:2], a[2:]
	case a == "--pickaxe-regex":
		o.pickaxeRegex = true
		return true, false, nil
	case a == "--pickaxe-all":
		o.pickaxeAll = true
		return true, false, nil
	default:
		return false, false, nil
	}
	if kind == "-S" {
		o.pickS = &v
	} else {
		o.pickG = &v
	}
	return true, consumed, nil
}

// compilePickaxe makes the log's pickaxe (nil when neither -S nor -G).
func (o *logOptions) compilePickaxe() (*pickaxe, error) {
	if o.pickS == nil && o.pickG == nil {
		return nil, nil
	}
	if o.pickS != nil && o.pickG != nil {
		return nil, fatalf("options '-G', '-S', and '--find-object' cannot be used together")
	}
	p := &pickaxe{all: o.pickaxeAll}
	pat := ""
	switch {
	case o.pickG != nil:
		p.grep, pat = true, *o.pickG
	case o.pickaxeRegex:
		pat = *o.pickS
	default:
		p.needle = []byte(*o.pickS)
		return p, nil
	}
	src, err := utils.TranslateRegex(pat, utils.RegexOptions{Dialect: utils.ExtendedRegex})
	if err == nil {
		if o.ignoreCase {
			src = "(?i)" + src
		}
		p.re, err = regexp.Compile("(?m)" + src)
	}
	if err != nil {
		return nil, fatalf("invalid regex: %s", errText(err))
	}
	return p, nil
}

// filter keeps the changes the pickaxe picks (all of them with
// --pickaxe-all when any is picked); a change whose content the door
// refuses is never searched.
func (p *pickaxe) filter(r *repo, changes []fileChange) ([]fileChange, error) {
	var kept []fileChange
	for _, c := range changes {
		if c.refused != nil || c.conflict {
			continue
		}
		hit, err := p.picks(r, c)
		if err != nil {
			return nil, err
		}
		if hit {
			if p.all {
				return changes, nil
			}
			kept = append(kept, c)
		}
	}
	return kept, nil
}

// picks tells whether one change is what the pickaxe looks for.
func (p *pickaxe) picks(r *repo, c fileChange) (bool, error) {
	if c.old.Hash == c.new.Hash {
		return false, nil
	}
	oldData, err := r.blob(c.old.Hash)
	if err != nil {
		return false, err
	}
	newData, err := r.blob(c.new.Hash)
	if err != nil {
		return false, err
	}
	if !p.grep {
		return p.count(oldData) != p.count(newData), nil
	}
	if isBinary(oldData) || isBinary(newData) {
		return false, nil
	}
	a, b := splitLines(oldData), splitLines(newData)
	for _, e := range diffLines(a, b) {
		var line []byte
		switch e.op {
		case opDel:
			line = a[e.a]
		case opAdd:
			line = b[e.b]
		default:
			continue
		}
		if p.re.Match(bytes.TrimSuffix(line, []byte("\n"))) {
			return true, nil
		}
	}
	return false, nil
}

// count is how many times -S's string or regexp occurs, without overlaps.
func (p *pickaxe) count(data []byte) int {
	if p.re != nil {
		return len(p.re.FindAllIndex(data, -1))
	}
	if len(p.needle) == 0 {
		return 0
	}
	return bytes.Count(data, p.needle)
}
