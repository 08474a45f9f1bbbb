package utils

import "path"

// Join resolves p against dir (p wins when absolute) and cleans the result.
func Join(dir, p string) string {
	if p == "" {
		return path.Clean(dir)
	}
	if p[0] == '/' {
		return path.Clean(p)
	}
	return path.Clean(dir + "/" + p)
}
