package git

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// errBadRev is git's answer to a name that is no revision.
func errBadRev(rev string) error {
	return fatalf("ambiguous argument '%s': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'", rev)
}

// resolve finds the object a revision names: HEAD, a branch, a tag, a
// full or abbreviated id, each with ~N, ^N and ^{type} suffixes.
func (r *repo) resolve(rev string) (plumbing.Hash, error) {
	base, suffix := rev, ""
	if i := strings.IndexAny(rev, "~^"); i > 0 {
		base, suffix = rev[:i], rev[i:]
	}
	h, ok := r.resolveName(base)
	if !ok {
		return plumbing.ZeroHash, errBadRev(rev)
	}
	for suffix != "" {
		switch {
		case strings.HasPrefix(suffix, "^{"):
			end := strings.IndexByte(suffix, '}')
			if end < 0 {
				return plumbing.ZeroHash, errBadRev(rev)
			}
			want := suffix[2:end]
			suffix = suffix[end+1:]
			var err error
			if h, err = r.peel(h, want); err != nil {
				return plumbing.ZeroHash, errBadRev(rev)
			}
		case suffix[0] == '~' || suffix[0] == '^':
			op := suffix[0]
			j := 1
			for j < len(suffix) && suffix[j] >= '0' && suffix[j] <= '9' {
				j++
			}
			n := 1
			if j > 1 {
				n, _ = strconv.Atoi(suffix[1:j])
			}
			suffix = suffix[j:]
			c, err := r.readCommit(h)
			if err != nil {
				return plumbing.ZeroHash, errBadRev(rev)
			}
			if op == '^' {
				if n == 0 {
					h = c.Hash
					continue
				}
				if n > len(c.Parents) {
					return plumbing.ZeroHash, errBadRev(rev)
				}
				h = c.Parents[n-1]
				continue
			}
			for ; n > 0; n-- {
				if len(c.Parents) == 0 {
					return plumbing.ZeroHash, errBadRev(rev)
				}
				if c, err = r.readCommit(c.Parents[0]); err != nil {
					return plumbing.ZeroHash, errBadRev(rev)
				}
			}
			h = c.Hash
		default:
			return plumbing.ZeroHash, errBadRev(rev)
		}
	}
	return h, nil
}

// peel follows tags (and commits to trees) to an object of type want
// ("" or "commit", "tree").
func (r *repo) peel(h plumbing.Hash, want string) (plumbing.Hash, error) {
	for {
		t, data, err := r.readObject(h)
		if err != nil {
			return h, err
		}
		switch {
		case t == plumbing.TagObject && want != "tag":
			h = decodeTag(data).Object
		case want == "tree" && t == plumbing.CommitObject:
			c, err := decodeCommit(h, data)
			if err != nil {
				return h, err
			}
			return c.Tree, nil
		case want == "" || want == t.String():
			return h, nil
		default:
			return h, errBadRev(want)
		}
	}
}

// resolveName looks a name up as git does: HEAD, refs, then ids.
func (r *repo) resolveName(name string) (plumbing.Hash, bool) {
	if name == "HEAD" || name == "@" {
		_, h, err := r.head()
		return h, err == nil && !h.IsZero()
	}
	for _, full := range []string{name, "refs/" + name, "refs/tags/" + name, "refs/heads/" + name, "refs/remotes/" + name, "refs/remotes/" + name + "/HEAD"} {
		if !strings.HasPrefix(full, "refs/") {
			continue
		}
		ref, err := r.st.Reference(plumbing.ReferenceName(full))
		if err != nil {
			continue
		}
		if ref.Type() == plumbing.SymbolicReference {
			if ref, err = r.st.Reference(ref.Target()); err != nil {
				continue
			}
		}
		return ref.Hash(), true
	}
	if len(name) >= 4 && len(name) <= 40 && isHex(name) {
		if len(name) == 40 {
			h := plumbing.NewHash(name)
			return h, r.st.HasEncodedObject(h) == nil
		}
		prefix := name
		if len(prefix)%2 == 1 {
			prefix = prefix[:len(prefix)-1]
		}
		raw, _ := hex.DecodeString(prefix)
		hs, err := r.st.HashesWithPrefix(raw)
		if err != nil {
			return plumbing.ZeroHash, false
		}
		var found []plumbing.Hash
		for _, h := range hs {
			if strings.HasPrefix(h.String(), strings.ToLower(name)) {
				found = append(found, h)
			}
		}
		if len(found) == 1 {
			return found[0], true
		}
	}
	return plumbing.ZeroHash, false
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// resolveCommit is resolve peeled to a commit.
func (r *repo) resolveCommit(rev string) (plumbing.Hash, error) {
	h, err := r.resolve(rev)
	if err != nil {
		return h, err
	}
	h, err = r.peel(h, "commit")
	if err != nil {
		return h, errBadRev(rev)
	}
	return h, nil
}
