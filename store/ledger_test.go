package store_test

import (
	"path/filepath"
	"testing"

	"gatehouse/store"
)

// DefaultPath: $GATEHOUSE_DB, then $XDG_DATA_HOME, then ~/.local/share.
// Not parallel: it changes the environment.
func TestDefaultPath(t *testing.T) {
	home := t.TempDir()
	tests := []struct {
		name, db, xdg, want string
	}{
		{"explicit", "/x/ledger.db", "/xdg", "/x/ledger.db"},
		{"xdg", "", "/xdg", "/xdg/gatehouse/ledger.db"},
		{"home", "", "", filepath.Join(home, ".local/share/gatehouse/ledger.db")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv("GATEHOUSE_DB", tt.db)
			t.Setenv("XDG_DATA_HOME", tt.xdg)
			if got := store.DefaultPath(); got != tt.want {
				t.Errorf("DefaultPath() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAskIDShape(t *testing.T) {
	t.Parallel()
	for range 100 {
		if id := store.NewID(); !store.ValidAskID(id) {
			t.Fatalf("NewID() = %q, not 12 lowercase hex characters", id)
		}
	}
	for _, bad := range []string{"", "0123456789a", "0123456789abc", "0123456789aB", "0123456789ag"} {
		if store.ValidAskID(bad) {
			t.Errorf("ValidAskID(%q) = true", bad)
		}
	}
}
