package git

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// tagListOptions are git tag's listing options.
type tagListOptions struct {
	patterns []string
	sorts    []string // --sort keys, the last given the primary one
	lines    int      // -n: annotation lines shown (0: none)
	pointsAt string   // --points-at
	contains string   // --contains
}

// parseTagListArg reads one listing option of git tag; ok says it was
// one (consumed: it took the next argument as its value).
func (o *tagListOptions) parseTagListArg(a string, next []string) (ok, consumed bool, err error) {
	value := func(name string) (string, bool, error) {
		if v, found := strings.CutPrefix(a, name+"="); found {
			return v, false, nil
		}
		if len(next) == 0 {
			return "", false, usageErr("error: option `" + name[2:] + "' requires a value\n")
		}
		return next[0], true, nil
	}
	switch {
	case a == "--sort" || strings.HasPrefix(a, "--sort="):
		v, c, err := value("--sort")
		o.sorts = append(o.sorts, v)
		return true, c, err
	case a == "--points-at" || strings.HasPrefix(a, "--points-at="):
		v, c, err := value("--points-at")
		o.pointsAt = v
		return true, c, err
	case a == "--contains" || strings.HasPrefix(a, "--contains="):
		v, c, err := value("--contains")
		o.contains = v
		return true, c, err
	case a == "-n":
		o.lines = 1
		return true, false, nil
	case strings.HasPrefix(a, "-n") && isDigits(a[2:]):
		o.lines, _ = strconv.Atoi(a[2:])
		return true, false, nil
	}
	return false, false, nil
}

// tagItem is a tag as the listing sorts and prints it.
type tagItem struct {
	name    string
	target  plumbing.Hash // the ref's object (a tag object when annotated)
	commit  plumbing.Hash // what it peels to (zero: not a commit)
	created int64         // tagger date, else the commit's committer date
	tagger  int64         // tagger date (0: lightweight)
	message string        // the annotation, else the commit's message
}

// listTagsWith lists tags as git tag -l does: patterns, --points-at,
// --contains, --sort (refname, version:refname/v:refname, creatordate,
// taggerdate, each with "-" to reverse, ties by name), -nN.
func (r *repo) listTagsWith(o tagListOptions) error {
	refs, err := r.refs()
	if err != nil {
		return err
	}
	var want, contains plumbing.Hash
	if o.pointsAt != "" {
		if want, err = r.resolveCommit(o.pointsAt); err != nil {
			return fatalf("malformed object name %s", o.pointsAt)
		}
	}
	var reach map[plumbing.Hash]bool
	if o.contains != "" {
		if contains, err = r.resolveCommit(o.contains); err != nil {
			return fatalf("malformed object name %s", o.contains)
		}
	}
	var items []tagItem
	for _, ref := range refs {
		if !ref.Name().IsTag() {
			continue
		}
		it := tagItem{name: ref.Name().Short(), target: ref.Hash()}
		if len(o.patterns) > 0 && !tagMatches(it.name, o.patterns) {
			continue
		}
		if err := r.fillTagItem(&it); err != nil {
			return err
		}
		if o.pointsAt != "" && it.commit != want && it.target != want {
			continue
		}
		if o.contains != "" {
			if it.commit.IsZero() {
				continue
			}
			reach = map[plumbing.Hash]bool{}
			if err := r.markAncestors(it.commit, reach); err != nil {
				return err
			}
			if !reach[contains] {
				continue
			}
		}
		items = append(items, it)
	}
	if err := sortTags(items, o.sorts); err != nil {
		return err
	}
	for _, it := range items {
		if o.lines == 0 {
			fmt.Fprintln(r.g.out, it.name)
			continue
		}
		fmt.Fprintln(r.g.out, tagAnnotation(it, o.lines))
	}
	return nil
}

// tagMatches is a tag name against -l's patterns (wildmatch).
func tagMatches(name string, patterns []string) bool {
	for _, p := range patterns {
		if globAny(p, name) {
			return true
		}
	}
	return false
}

// fillTagItem reads what a tag's sorting and -n need.
func (r *repo) fillTagItem(it *tagItem) error {
	t, data, err := r.readObject(it.target)
	if err != nil {
		return nil
	}
	if t == plumbing.TagObject {
		tg := decodeTag(data)
		it.tagger, it.created, it.message = tg.Tagger.When.Unix(), tg.Tagger.When.Unix(), tg.Message
	}
	if h, err := r.peel(it.target, "commit"); err == nil {
		it.commit = h
		if c, err := r.readCommit(h); err == nil && t != plumbing.TagObject {
			it.created, it.message = c.Committer.When.Unix(), c.Message
		}
	}
	return nil
}

// tagAnnotation is -nN's line: the name padded to 15, then the first N
// lines of the annotation (the commit's message for a lightweight tag),
// the later ones indented.
func tagAnnotation(it tagItem, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-15s", it.name)
	lines := strings.Split(strings.TrimRight(it.message, "\n"), "\n")
	for i, ln := range lines {
		if i >= n {
			break
		}
		if i == 0 {
			b.WriteString(" " + ln)
			continue
		}
		b.WriteString("\n    " + ln)
	}
	return strings.TrimRight(b.String(), " ")
}

// sortTags orders tags by the --sort keys (the last one first), ties by
// name ascending whatever the keys' directions, as git's ref-filter.
func sortTags(items []tagItem, keys []string) error {
	type key struct {
		field   string
		reverse bool
	}
	var ks []key
	for i := len(keys) - 1; i >= 0; i-- {
		k := key{field: keys[i]}
		k.field, k.reverse = strings.CutPrefix(k.field, "-")
		switch k.field {
		case "refname", "version:refname", "v:refname", "creatordate", "taggerdate", "committerdate":
		default:
			return fatalf("unknown field name: %s", k.field)
		}
		ks = append(ks, k)
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		for _, k := range ks {
			c := 0
			switch k.field {
			case "refname":
				c = strings.Compare(a.name, b.name)
			case "version:refname", "v:refname":
				c = versionCompare(a.name, b.name)
			case "creatordate", "committerdate":
				c = compareInt(a.created, b.created)
			case "taggerdate":
				c = compareInt(a.tagger, b.tagger)
			}
			if c != 0 {
				return c < 0 != k.reverse
			}
		}
		return a.name < b.name
	})
	return nil
}

func compareInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// versionCompare is strverscmp as git's version sort uses it: runs of
// digits compare as numbers, the rest byte by byte.
func versionCompare(a, b string) int {
	for a != "" && b != "" {
		if isDigitByte(a[0]) && isDigitByte(b[0]) {
			i, j := digitRun(a), digitRun(b)
			na, nb := strings.TrimLeft(a[:i], "0"), strings.TrimLeft(b[:j], "0")
			if len(na) != len(nb) {
				return compareInt(int64(len(na)), int64(len(nb)))
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[i:], b[j:]
			continue
		}
		if a[0] != b[0] {
			return compareInt(int64(a[0]), int64(b[0]))
		}
		a, b = a[1:], b[1:]
	}
	return compareInt(int64(len(a)), int64(len(b)))
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

func digitRun(s string) int {
	i := 0
	for i < len(s) && isDigitByte(s[i]) {
		i++
	}
	return i
}
