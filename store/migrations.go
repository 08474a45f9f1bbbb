package store

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Migration is one schema change of a ledger implementation: a file
// NNNN_what.sql embedded in its package, NNNN being its version. Applied
// files are never edited; a change is a new file.
type Migration struct {
	Version int
	Name    string // the file's name, e.g. 0002_grants.sql
	SQL     string
}

// LoadMigrations reads the *.sql files of dir in fsys, in version order.
// A name without a positive version and '_', or two files of one version,
// is an error: the implementation would not know what it has applied.
func LoadMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Migration
	seen := map[int]string{}
	for _, name := range names {
		base := path.Base(name)
		digits, _, ok := strings.Cut(base, "_")
		version, err := strconv.Atoi(digits)
		if !ok || err != nil || version <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a positive version and '_'", base)
		}
		if other, dup := seen[version]; dup {
			return nil, fmt.Errorf("migrations %s and %s share version %d", other, base, version)
		}
		seen[version] = base
		text, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: version, Name: base, SQL: string(text)})
	}
	return out, nil
}
