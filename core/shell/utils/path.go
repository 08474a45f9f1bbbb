package utils

import "path"

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
	return path.Clean(dir + "/" + p)
}
