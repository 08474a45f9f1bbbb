package git

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

func runRevParse(g *cmd, args []string) error {
	r, err := g.findRepo()
	if err != nil {
		return err
	}
	short, abbrevRef, verify, quiet := 0, false, false, false
	var out []string
	for _, a := range args {
		switch {
		case a == "--show-toplevel":
			out = append(out, r.work)
		case a == "--git-dir":
			if g.env.Dir == r.work {
				out = append(out, ".git")
			} else {
				out = append(out, r.gitDir)
			}
		case a == "--absolute-git-dir":
			out = append(out, r.gitDir)
		case a == "--is-inside-work-tree":
			out = append(out, "true")
		case a == "--is-inside-git-dir":
			out = append(out, "false")
		case a == "--is-bare-repository":
			out = append(out, "false")
		case a == "--show-prefix":
			p, _ := r.workPath(".")
			if p != "" {
				p += "/"
			}
			out = append(out, p)
		case a == "--show-cdup":
			p, _ := r.workPath(".")
			cdup := ""
			if p != "" {
				cdup = strings.Repeat("../", strings.Count(p, "/")+1)
			}
			out = append(out, cdup)
		case a == "--short":
			short = r.abbrevLen()
		case strings.HasPrefix(a, "--short="):
			n, err := strconv.Atoi(strings.TrimPrefix(a, "--short="))
			if err != nil {
				return fatalf("'%s': not an integer", a)
			}
			short = max(4, min(n, 40))
		case a == "--abbrev-ref":
			abbrevRef = true
		case a == "--verify":
			verify = true
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--symbolic-full-name":
			abbrevRef = false
		case strings.HasPrefix(a, "-"):
			out = append(out, a) // git echoes options it does not know
		default:
			line, err := r.revParseOne(a, short, abbrevRef)
			if err != nil {
				if verify {
					if quiet {
						return exitStatus(1)
					}
					return fatalf("Needed a single revision")
				}
				g.out.WriteString(strings.Join(out, "\n"))
				if len(out) > 0 {
					g.out.WriteString("\n")
				}
				g.out.WriteString(a + "\n")
				return err
			}
			out = append(out, line)
		}
	}
	for _, ln := range out {
		fmt.Fprintln(g.out, ln)
	}
	return nil
}

// revParseOne names one revision: its id (abbreviated with --short) or,
// with --abbrev-ref, the branch it is.
func (r *repo) revParseOne(a string, short int, abbrevRef bool) (string, error) {
	if abbrevRef {
		if a == "HEAD" || a == "@" {
			branch, _, err := r.head()
			if err != nil {
				return "", err
			}
			if branch == "" {
				return "HEAD", nil
			}
			return branch.Short(), nil
		}
		if _, err := r.st.Reference(plumbing.NewBranchReferenceName(a)); err == nil {
			return a, nil
		}
	}
	h, err := r.resolveObject(a)
	if err != nil {
		return "", err
	}
	if short > 0 {
		return h.String()[:short], nil
	}
	return h.String(), nil
}
