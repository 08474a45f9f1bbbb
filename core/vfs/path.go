package vfs

import (
	"path"
	"strings"
)

// cleanAbs returns p cleaned, without allocating when p is already clean
// (the common case on the hot path). An empty path is ENOENT, as on Linux;
// a relative one is EINVAL because a View has no cwd.
func cleanAbs(p string) (string, error) {
	if p == "" {
		return "", ENOENT
	}
	if p[0] != '/' {
		return "", EINVAL
	}
	if isCleanAbs(p) {
		return p, nil
	}
	return path.Clean(p), nil
}

// isCleanAbs reports whether path.Clean(p) == p for an absolute p, by a
// single scan that allocates nothing.
func isCleanAbs(p string) bool {
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
		switch j - i - 1 { // the component's length; cheaper than comparing strings
		case 0:
			return false
		case 1:
			if p[i+1] == '.' {
				return false
			}
		case 2:
			if p[i+1] == '.' && p[i+2] == '.' {
				return false
			}
		}
		i = j
	}
	return true
}

// joinPath joins a clean absolute directory and one name.
func joinPath(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// baseName is path.Base for clean absolute paths, without allocating.
func baseName(p string) string {
	if p == "/" {
		return "/"
	}
	return p[strings.LastIndexByte(p, '/')+1:]
}

// dirName is path.Dir for clean absolute paths, without allocating.
func dirName(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}

// within reports whether the clean absolute path p is dir or lies below it.
func within(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return p == dir || (len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir)
}

// relativePath returns the relative path that leads from directory from to
// to (both clean and absolute), as a symlink target must be spelled to work
// wherever the tree is mounted.
func relativePath(from, to string) string {
	fromParts := splitComponents(from)
	toParts := splitComponents(to)
	common := 0
	for common < len(fromParts) && common < len(toParts) && fromParts[common] == toParts[common] {
		common++
	}
	var parts []string
	for range fromParts[common:] {
		parts = append(parts, "..")
	}
	parts = append(parts, toParts[common:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

func splitComponents(p string) []string {
	if p == "/" {
		return nil
	}
	return strings.Split(p[1:], "/")
}
