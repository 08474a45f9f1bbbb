package core

import "path/filepath"

// ownHostFiles lists, for vfs.Conceal, the host files a workspace keeps
// for itself: the ledger at ledgerPath with SQLite's -wal, -shm and
// -journal beside it, the REST token (the ledger's name plus ".token",
// as rest.TokenPath has it) and the temporary files the token is first
// written to, and the workspace document at docPath ("" when the
// workspace was built in Go). No host mount ever shows them (G-5.6).
func ownHostFiles(ledgerPath, docPath string) []string {
	var out []string
	if ledgerPath != "" {
		if abs, err := filepath.Abs(ledgerPath); err == nil {
			out = append(out, abs, abs+"-wal", abs+"-shm", abs+"-journal", abs+".token",
				filepath.Join(filepath.Dir(abs), ".token-*"))
		}
	}
	if docPath != "" {
		if abs, err := filepath.Abs(docPath); err == nil {
			out = append(out, abs)
			// A document reached through a link is concealed where it
			// really lives too, by name, so an edit that replaces the
			// file (a new inode) stays concealed.
			if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
				out = append(out, real)
			}
		}
	}
	return out
}
