package utils

import (
	"path"
	"strings"
)

// Join resolves p against dir (p wins when absolute) and cleans the result.
// A leading "./" (find's way of naming what it found) is dropped before
// joining, so a name that is otherwise clean costs one allocation, the
// joined string, instead of three (path.Clean copies whatever it changes).
func Join(dir, p string) string {
	if p == "" {
		return path.Clean(dir)
	}
	if p[0] == '/' {
		return path.Clean(p)
	}
	for len(p) >= 2 && p[0] == '.' && p[1] == '/' {
		p = p[2:]
		for p != "" && p[0] == '/' {
			p = p[1:]
		}
	}
	switch {
	case p == "":
		return path.Clean(dir)
	case dir == "/":
		return path.Clean("/" + p)
	}
	joined := dir + "/" + p
	if isCleanAbs(joined) {
		return joined // the common case: a clean name under a clean directory
	}
	return path.Clean(joined)
}

// isCleanAbs reports whether p is absolute and path.Clean would leave it
// as it is, in one pass without Clean's copying machinery.
func isCleanAbs(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	if p == "/" {
		return true
	}
	if p[len(p)-1] == '/' {
		return false
	}
	for i := 0; i < len(p); {
		j := i + 1
		for j < len(p) && p[j] != '/' {
			j++
		}
		switch elem := p[i+1 : j]; elem {
		case "", ".", "..":
			return false
		}
		i = j
	}
	return true
}

// joinEntry names an entry a listing of the clean absolute directory dir
// gave (one element: no slash, never "." or ".."), and shown, the name a
// walk prints for dir ("" at the walk's start, then NAME), extended by it.
// There is nothing to clean, and when shown is how dir ends the printed
// name is the tail of the path: one allocation per entry, not two or
// three (grep -r, du and the like call this for every file they meet).
func joinEntry(dir, shown, name string) (child, childShown string) {
	if dir == "/" {
		child = "/" + name
	} else {
		child = dir + "/" + name
	}
	switch {
	case shown == "":
		return child, name
	case strings.HasSuffix(dir, shown) && !strings.HasSuffix(shown, "/") &&
		(len(dir) == len(shown) || dir[len(dir)-len(shown)-1] == '/'):
		return child, child[len(child)-len(shown)-1-len(name):]
	}
	return child, joinShown(shown, name)
}
