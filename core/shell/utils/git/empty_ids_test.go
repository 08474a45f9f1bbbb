package git

import (
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestEmptyObjectIDs: the ids written out for the empty tree and the empty
// blob are the ones git computes.
func TestEmptyObjectIDs(t *testing.T) {
	t.Parallel()
	if want := plumbing.ComputeHash(plumbing.TreeObject, nil); emptyTree != want {
		t.Errorf("emptyTree = %s, want %s", emptyTree, want)
	}
	if want := plumbing.ComputeHash(plumbing.BlobObject, nil); emptyBlob != want {
		t.Errorf("emptyBlob = %s, want %s", emptyBlob, want)
	}
}
