package demo

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
)

// G-15.2: each variant's tables are pinned.
func TestPolicyGolden(t *testing.T) {
	t.Parallel()
	for _, variant := range PolicyVariants {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			if err := PolicyTables(context.Background(), variant, &b); err != nil {
				t.Fatal(err)
			}
			golden(t, "policy-"+variant, b.Bytes())
		})
	}
}

// G-15.2, G-8.3: guard.star and its JavaScript twin judge every line and
// every check alike; only the program's name in the records differs.
func TestPolicyEnginesAgree(t *testing.T) {
	t.Parallel()
	_, star, err := policyTables(context.Background(), "starlark")
	if err != nil {
		t.Fatal(err)
	}
	_, js, err := policyTables(context.Background(), "javascript")
	if err != nil {
		t.Fatal(err)
	}
	if len(star) != len(js) {
		t.Fatalf("starlark printed %d tables, javascript %d", len(star), len(js))
	}
	for i := range star {
		if len(star[i].rows) != len(js[i].rows) {
			t.Fatalf("table %d: starlark has %d rows, javascript %d", i, len(star[i].rows), len(js[i].rows))
		}
		for r, row := range star[i].rows {
			twin := make([]string, len(js[i].rows[r]))
			for c, cell := range js[i].rows[r] {
				twin[c] = strings.ReplaceAll(cell, "policy:guard.js", "policy:guard.star")
			}
			if !slices.Equal(row, twin) {
				t.Errorf("table %d row %d:\nstarlark   %q\njavascript %q", i, r, row, js[i].rows[r])
			}
		}
	}
}

// G-15.2: `gatehouse demo policy` prints the three variants in order.
func TestPolicyDemoRuns(t *testing.T) {
	t.Parallel()
	var whole, parts bytes.Buffer
	if err := Run(context.Background(), "policy", nil, &whole, Options{}); err != nil {
		t.Fatal(err)
	}
	for i, variant := range PolicyVariants {
		if i > 0 {
			parts.WriteString("\n")
		}
		if err := PolicyTables(context.Background(), variant, &parts); err != nil {
			t.Fatal(err)
		}
	}
	if whole.String() != parts.String() {
		t.Errorf("demo policy printed\n%s\nwant the variants in order:\n%s", whole.String(), parts.String())
	}
}
