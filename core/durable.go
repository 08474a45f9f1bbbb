package core

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"time"

	"gatehouse/core/vfs"
	"gatehouse/store"
)

// Durable memory mounts (G-5.6). A workspace's memory mounts are kept in
// its ledger, so that what an agent writes outlives the process that ran
// the line, like a real disk:
//
//   - the ledger holds, per workspace, every path that differs from the
//     document's seed (a file, a directory, a link, or gone);
//   - a workspace opening lays those over the seed;
//   - before a line (or file operation) runs, the workspace takes what
//     other processes saved since it last looked (one cheap read when
//     nothing changed);
//   - when it ends, the paths it changed are saved in one transaction.
//
// Two processes writing the same file: the line that ends last wins, per
// file; changes a process has not yet saved are never overwritten by what
// it takes from the ledger. `gatehouse reset --mounts` forgets the saved
// paths, and every process goes back to the seed at its next line.

// durableMounts moves a workspace's memory-mount changes to and from its
// ledger. One sync (load, take, save) runs at a time.
type durableMounts struct {
	fs     *vfs.VFS
	ledger store.Ledger
	// key names the workspace in the ledger: the document's absolute
	// path, or the name a Go embedder gave (WithDurableMounts).
	key      string
	prefixes []string

	mu    sync.Mutex
	state store.MountState // what this process has laid down
}

// WithDurableMounts keeps the memory mounts of a workspace built in Go in
// its ledger under name, as a document's are kept under its path (G-5.6):
// workspaces of the same name on the same ledger share their files. A
// mount with Ephemeral set is not kept.
func WithDurableMounts(name string) Option { return func(o *options) { o.durable = name } }

// durableKey is the name a workspace's mount files are kept under: the
// document's absolute path with links resolved, so every spelling of it
// (and every cwd it is named from) finds the same files.
func durableKey(cfg Config, o options) string {
	if o.durable != "" {
		return o.durable
	}
	if cfg.Path == "" {
		return ""
	}
	return documentPath(cfg.Path)
}

// documentPath is the absolute path of a workspace document, links
// resolved where they can be.
func documentPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// openDurable lays the mount files the ledger holds over the seed.
func openDurable(ctx context.Context, fsys *vfs.VFS, ledger store.Ledger, key string) (*durableMounts, error) {
	prefixes := fsys.DurableMounts()
	if key == "" || len(prefixes) == 0 {
		return nil, nil
	}
	d := &durableMounts{fs: fsys, ledger: ledger, key: key, prefixes: prefixes}
	if err := d.pull(ctx); err != nil {
		return nil, fmt.Errorf("load the workspace's files from the ledger: %w", err)
	}
	return d, nil
}

// pull takes what was saved since this process last looked: nothing when
// the state is unchanged; everything over a fresh seed after a reset.
func (d *durableMounts) pull(ctx context.Context) error {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st, err := d.ledger.MountState(ctx, d.key)
	if err != nil || st == d.state {
		return err
	}
	return d.applySince(ctx, st, -1)
}

// applySince lays down what changed after the state this process holds,
// passing over the rows of its own save (rev own), and moves its state
// on. A new epoch (a reset) goes back to the seed first (caller holds mu).
func (d *durableMounts) applySince(ctx context.Context, st store.MountState, own int64) error {
	after := d.state.Rev
	reset := st.Epoch != d.state.Epoch
	if reset {
		after = 0
	}
	files, read, err := d.ledger.MountFiles(ctx, d.key, after)
	if err != nil {
		return err
	}
	if read.Epoch != st.Epoch {
		reset, after = true, 0 // a reset came in between: read it all
		if files, read, err = d.ledger.MountFiles(ctx, d.key, 0); err != nil {
			return err
		}
	}
	byMount := map[string][]vfs.Entry{}
	for _, f := range files {
		if f.Rev != own {
			byMount[f.Mount] = append(byMount[f.Mount], entryOf(f))
		}
	}
	for _, prefix := range d.prefixes {
		if reset {
			if err := d.fs.Reseed(prefix); err != nil {
				return err
			}
		}
		if err := d.fs.Apply(prefix, byMount[prefix]); err != nil {
			return err
		}
	}
	d.state = read
	return nil
}

// save writes the paths every durable mount changed since the last save
// in one transaction, then takes what others saved meanwhile. Changes
// that could not be saved stay journaled for the next save.
func (d *durableMounts) save(ctx context.Context) error {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var files []store.MountFile
	taken := map[string][]string{}
	for _, prefix := range d.prefixes {
		entries, err := d.fs.Changes(prefix)
		if err != nil {
			return err
		}
		for _, e := range entries {
			files = append(files, fileOf(prefix, e))
			taken[prefix] = append(taken[prefix], e.Path)
		}
	}
	if len(files) == 0 {
		return nil
	}
	st, err := d.ledger.SaveMountFiles(ctx, d.key, files)
	if err != nil {
		for prefix, paths := range taken {
			d.fs.Rejournal(prefix, paths)
		}
		return err
	}
	if st.Rev == d.state.Rev+1 && st.Epoch == d.state.Epoch {
		d.state = st // nobody else saved in between
		return nil
	}
	return d.applySince(ctx, st, st.Rev)
}

// reset forgets the saved files of the named mounts (all when none is
// named) and returns them to the seed here at once.
func (d *durableMounts) reset(ctx context.Context, mounts ...string) error {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st, err := d.ledger.ResetMounts(ctx, d.key, mounts...)
	if err != nil {
		return err
	}
	return d.applySince(ctx, st, -1)
}

func entryOf(f store.MountFile) vfs.Entry {
	return vfs.Entry{Path: f.Path, Kind: vfs.EntryKind(f.Kind), Mode: fs.FileMode(f.Mode), ModTime: f.ModTime, Data: f.Data, Target: f.Target}
}

func fileOf(prefix string, e vfs.Entry) store.MountFile {
	return store.MountFile{Mount: prefix, Path: e.Path, Kind: string(e.Kind), Mode: uint32(e.Mode), ModTime: e.ModTime, Data: e.Data, Target: e.Target}
}

// ResetMounts returns the workspace's durable memory mounts (those named
// by prefix, or all of them) to the document's seed, here and, from their
// next line, in every process with the workspace open (`gatehouse reset
// --mounts`). It does nothing for a workspace whose mounts are not kept.
func (ws *Workspace) ResetMounts(ctx context.Context, prefixes ...string) error {
	for _, p := range prefixes {
		if !containsString(ws.durable.prefixesOrNil(), p) {
			return fmt.Errorf("reset mounts: %s is not a memory mount kept in the ledger (known: %v)", p, ws.durable.prefixesOrNil())
		}
	}
	return ws.durable.reset(ctx, prefixes...)
}

// DurableMounts lists the memory mounts the workspace keeps in its ledger.
func (ws *Workspace) DurableMounts() []string { return ws.durable.prefixesOrNil() }

func (d *durableMounts) prefixesOrNil() []string {
	if d == nil {
		return nil
	}
	return d.prefixes
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// syncTimeout bounds a save the caller's context no longer bounds (the
// line's own ended with it).
const syncTimeout = 10 * time.Second

// saveAfter saves a line's changes once the line has ended, whatever ended
// it, and words a failure for the line's stderr.
func (ws *Workspace) saveAfter(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), syncTimeout)
	defer cancel()
	if err := ws.durable.save(ctx); err != nil {
		return "gatehouse: the line's file changes were not saved to the ledger (they will be with the next line): " + err.Error() + "\n"
	}
	return ""
}
