package gate_test

import (
	"errors"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// G-6.1b, G-6.3: a listing's per-entry check asks only whether the entry is
// hidden; pre_ops, which can only refuse, is not consulted there, so a
// refused entry stays listed and a recursive listing costs no program call
// per entry. Opening the same entry still meets pre_ops.
func TestListingSkipsPreOps(t *testing.T) {
	t.Parallel()
	p, err := gate.Compile(gate.ProfileSpec{Name: "p", Hide: []gate.PathGroup{{Paths: []string{"/w/hidden"}}}},
		[]gate.Mount{{Prefix: "/w"}}, gate.WithPolicies(refuse("freeze", "frozen")))
	if err != nil {
		t.Fatal(err)
	}
	door := p.Door(nil)
	if err := door.CheckOp(vfs.Op{Name: vfs.OpStat, Path: "/w/file", Prefix: "/w", Listing: true}); err != nil {
		t.Errorf("listing check of a visible entry: %v", err)
	}
	if err := door.CheckOp(vfs.Op{Name: vfs.OpStat, Path: "/w/hidden", Prefix: "/w", Listing: true}); !errors.Is(err, vfs.ErrHidden) {
		t.Errorf("listing check of a hidden entry: %v, want hidden", err)
	}
	var re *vfs.RefusedError
	if err := door.CheckOp(vfs.Op{Name: vfs.OpOpen, Path: "/w/file", Prefix: "/w"}); !errors.As(err, &re) || re.Reason != "frozen" {
		t.Errorf("open: %v, want the pre_ops refusal", err)
	}
}
