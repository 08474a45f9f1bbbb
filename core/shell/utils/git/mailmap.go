package git

import (
	"strings"
)

// mailmapInfo is what an ident becomes: a proper name, a proper email,
// either empty for "keep".
type mailmapInfo struct{ name, email string }

// mailmapEntry is one commit email's mapping: the simple one, and by
// commit name (lower-cased) those that also name the committed name.
type mailmapEntry struct {
	simple mailmapInfo
	byName map[string]mailmapInfo
}

// mailmap maps commit idents to proper ones, keyed by lower-cased email
// (git compares both names and emails without case).
type mailmap map[string]*mailmapEntry

// loadMailmap reads the worktree's .mailmap and mailmap.file through the
// session's door (a hidden or unreadable file is no mailmap), once per
// run.
func (r *repo) loadMailmap() mailmap {
	if r.mm != nil {
		return r.mm
	}
	r.mm = mailmap{}
	files := []string{r.abs(".mailmap")}
	if f, ok := r.cfg.get("mailmap.file"); ok && f != "" {
		if strings.HasPrefix(f, "~/") {
			f = r.g.env.Getenv("HOME") + f[1:]
		} else if !strings.HasPrefix(f, "/") {
			f = r.abs(f)
		}
		files = append(files, f)
	}
	for _, f := range files {
		data, err := readFile(r.g.fsys, f)
		if err != nil {
			continue
		}
		for _, ln := range strings.Split(string(data), "\n") {
			r.mm.addLine(ln)
		}
	}
	return r.mm
}

// mailmapPart is git's parse_name_and_email: the name before "<" (trimmed,
// "" for none), the email within "<...>" and what follows ">".
func mailmapPart(s string, allowEmpty bool) (name, email, rest string, ok bool) {
	lt := strings.IndexByte(s, '<')
	if lt < 0 {
		return "", "", "", false
	}
	gt := strings.IndexByte(s[lt+1:], '>')
	if gt < 0 || gt == 0 && !allowEmpty {
		return "", "", "", false
	}
	return strings.TrimSpace(s[:lt]), s[lt+1 : lt+1+gt], s[lt+2+gt:], true
}

// addLine reads one line of a mailmap file, as git's read_mailmap_line.
func (m mailmap) addLine(ln string) {
	if strings.HasPrefix(ln, "#") {
		return
	}
	newName, newEmail, rest, ok := mailmapPart(ln, false)
	if !ok {
		return
	}
	oldName, oldEmail := "", ""
	hasOld := false
	if rest != "" {
		oldName, oldEmail, _, hasOld = mailmapPart(rest, true)
	}
	if !hasOld {
		oldEmail, newEmail = newEmail, ""
	}
	key := strings.ToLower(oldEmail)
	e := m[key]
	if e == nil {
		e = &mailmapEntry{}
		m[key] = e
	}
	if oldName == "" {
		if newName != "" {
			e.simple.name = newName
		}
		if newEmail != "" {
			e.simple.email = newEmail
		}
		return
	}
	if e.byName == nil {
		e.byName = map[string]mailmapInfo{}
	}
	e.byName[strings.ToLower(oldName)] = mailmapInfo{newName, newEmail}
}

// mapIdent is git's map_user: the proper name and email for a commit's.
func (m mailmap) mapIdent(s signature) signature {
	e := m[strings.ToLower(s.Email)]
	if e == nil {
		return s
	}
	info := e.simple
	if i, ok := e.byName[strings.ToLower(s.Name)]; ok {
		info = i
	}
	if info.name != "" {
		s.Name = info.name
	}
	if info.email != "" {
		s.Email = info.email
	}
	return s
}

// logMailmap is whether log and show print mapped idents (log.mailmap,
// true unless set false, as since git 2.29).
func (r *repo) logMailmap() bool {
	v, ok := r.cfg.get("log.mailmap")
	return !ok || !isFalse(v)
}

// isFalse is a git boolean's false spellings.
func isFalse(v string) bool {
	switch strings.ToLower(v) {
	case "false", "no", "off", "0":
		return true
	}
	return false
}
