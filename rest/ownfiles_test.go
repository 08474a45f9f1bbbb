package rest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/core"
	"gatehouse/core/vfs"
)

// The token the daemon keeps beside the ledger is one of gatehouse's own
// files: an agent whose host mount holds the ledger's directory can
// neither list nor read it (G-5.6). This ties TokenPath to the names the
// workspace conceals.
func TestTokenIsConcealedFromHostMounts_G5_6(t *testing.T) {
	dir := t.TempDir()
	ledger := filepath.Join(dir, "ledger.db")
	ws, err := core.NewWorkspace([]vfs.MountSpec{{Prefix: "/h", HostDir: dir}}, core.WithLedger(ledger))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	token, err := LoadOrCreateToken(ledger)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(TokenPath(ledger)); err != nil {
		t.Fatal(err)
	}
	res := ws.Execute(context.Background(), "ls -a /h; cat /h/*; cat /h/"+filepath.Base(TokenPath(ledger)))
	if strings.Contains(res.Stdout+res.Stderr, token) || strings.Contains(res.Stdout, "token") || strings.Contains(res.Stdout, "ledger") {
		t.Fatalf("the token or the ledger showed through the mount:\n%s\n%s", res.Stdout, res.Stderr)
	}
}
