package store

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoadMigrations(t *testing.T) {
	t.Parallel()
	sql := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	tests := []struct {
		name    string
		files   fstest.MapFS
		want    []int
		wantErr string
	}{
		{"in version order", fstest.MapFS{"m/0002_b.sql": sql("B"), "m/0001_a.sql": sql("A"), "m/README": sql("x")}, []int{1, 2}, ""},
		{"no version", fstest.MapFS{"m/init.sql": sql("A")}, nil, "positive version"},
		{"version zero", fstest.MapFS{"m/0000_a.sql": sql("A")}, nil, "positive version"},
		{"one version twice", fstest.MapFS{"m/0001_a.sql": sql("A"), "m/1_b.sql": sql("B")}, nil, "share version 1"},
		{"none", fstest.MapFS{}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := LoadMigrations(tc.files, "m")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d migrations, want %d", len(got), len(tc.want))
			}
			for i, m := range got {
				if m.Version != tc.want[i] || m.SQL == "" || !strings.HasSuffix(m.Name, ".sql") {
					t.Errorf("migration %d = %+v, want version %d", i, m, tc.want[i])
				}
			}
		})
	}
}
