package document

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gatehouse/core/gate"
	"gatehouse/core/gate/javascript"
	"gatehouse/core/gate/starlark"
	"gatehouse/core/vfs"
)

const fullDocument = "testdata/document/workspace.yaml"

// policyEngines are the languages core offers a document's policy block.
var policyEngines = gate.WithEngines(starlark.Engine{}, javascript.Engine{})

// at renders the Source a rule written at line:col of the full document cites.
func fullDocumentAt(line, col int) string {
	return fmt.Sprintf("%s:%d:%d", fullDocument, line, col)
}

func loadFullDocument(t *testing.T) *Config {
	t.Helper()
	cfg, err := Load(fullDocument)
	if err != nil {
		t.Fatalf("Load(%s): %v", fullDocument, err)
	}
	return cfg
}

func loadedProfile(t *testing.T, cfg *Config, name string) gate.ProfileSpec {
	t.Helper()
	for _, p := range cfg.Profiles {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("profile %q not loaded; got %d profiles", name, len(cfg.Profiles))
	return gate.ProfileSpec{}
}

// TestLoadConfigFullDocument pins what every key of G-1.1 loads into,
// including where each rule says it was written (G-1.3).
func TestLoadConfigFullDocument(t *testing.T) {
	t.Parallel()
	cfg := loadFullDocument(t)
	repoDir, err := filepath.Abs("testdata/document/repo")
	if err != nil {
		t.Fatal(err)
	}
	guardFile, err := filepath.Abs("testdata/document/guard.star")
	if err != nil {
		t.Fatal(err)
	}
	guardCode, err := os.ReadFile(guardFile)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		got  func(cfg *Config) any
		want any
	}{
		{"path is the document as named", func(c *Config) any { return c.Path }, fullDocument},
		{"mounts in document order with modes, sources and seed files", func(c *Config) any { return c.Mounts }, []vfs.MountSpec{
			{Prefix: "/runbook", Files: map[string]string{"README.md": "Incident runbook\n", "frozen/restore.md": "1. page the on-call\n"}},
			{Prefix: "/vault", ReadOnly: true, Files: map[string]string{"aws.token": "AKIA-EXAMPLE\n", "public/ca.pem": "-----BEGIN CERTIFICATE-----\n"}},
			{Prefix: "/repo", HostDir: repoDir},
		}},
		{"profiles in document order, default excluded", func(c *Config) any {
			var names []string
			for _, p := range c.Profiles {
				names = append(names, p.Name)
			}
			return names
		}, []string{"responder", "auditor", "guest"}},
		{"default names a profile", func(c *Config) any { return c.Default }, "responder"},
		{"profile source is its name's position", func(c *Config) any {
			return []string{loadedProfile(t, c, "responder").Source, loadedProfile(t, c, "auditor").Source, loadedProfile(t, c, "guest").Source}
		}, []string{fullDocumentAt(16, 3), fullDocumentAt(46, 3), fullDocumentAt(53, 3)}},
		{"cwd", func(c *Config) any { return loadedProfile(t, c, "responder").Cwd }, "/runbook"},
		{"env values keep their text, numbers included", func(c *Config) any { return loadedProfile(t, c, "responder").Env },
			map[string]string{"TEAM": "sre", "PORT": "8080"}},
		{"allow patterns as written, a command named true included", func(c *Config) any { return loadedProfile(t, c, "responder").Allow },
			[]string{"cat", "ls", "true", "git status"}},
		{"allow source", func(c *Config) any { return loadedProfile(t, c, "responder").AllowSource }, fullDocumentAt(20, 7)},
		{"allow: [] installs nothing (empty, not nil)", func(c *Config) any {
			allow := loadedProfile(t, c, "auditor").Allow
			return allow != nil && len(allow) == 0
		}, true},
		{"omitted allow installs everything (nil)", func(c *Config) any { return loadedProfile(t, c, "guest").Allow == nil }, true},
		{"ask rules: mapping and bare string", func(c *Config) any { return loadedProfile(t, c, "responder").Ask }, []gate.Rule{
			{Reason: "removal needs sign-off", Commands: []string{"rm"}, Source: fullDocumentAt(22, 11)},
			{Reason: "", Commands: []string{"rm -rf"}, Source: fullDocumentAt(23, 11)},
		}},
		{"deny rules: paths, and a block mapping with commands", func(c *Config) any { return loadedProfile(t, c, "responder").Deny }, []gate.Rule{
			{Reason: "credentials are never read by hand", Paths: []string{"/vault/*"}, Source: fullDocumentAt(25, 11)},
			{Reason: "pushes go through CI", Commands: []string{"git push", "git commit"}, Source: fullDocumentAt(26, 11)},
		}},
		{"hide: bare pattern and reasoned group", func(c *Config) any { return loadedProfile(t, c, "responder").Hide }, []gate.PathGroup{
			{Paths: []string{"/vault/internal"}, Source: fullDocumentAt(29, 14)},
			{Reason: "operator only", Paths: []string{"/runbook/*.bak", "/runbook/**/[a-z]?.tmp"}, Source: fullDocumentAt(29, 31)},
		}},
		{"show as a mapping keeps order and modes", func(c *Config) any { return loadedProfile(t, c, "responder").Show }, []gate.ShowEntry{
			{Path: "/vault/public", Mode: "ro", Source: fullDocumentAt(30, 14)},
			{Path: "/vault/shared", Mode: "rw", Source: fullDocumentAt(30, 33)},
			{Path: "/vault/any", Mode: "", Source: fullDocumentAt(30, 52)},
		}},
		{"vars.hide", func(c *Config) any { return loadedProfile(t, c, "responder").VarsHide }, []string{"AWS_*", "GITHUB_TOKEN"}},
		{"mount rules keep relative patterns and accept absolute ones inside", func(c *Config) any { return loadedProfile(t, c, "responder").Mounts },
			map[string]gate.MountRules{"/repo": {
				ReadOnly: true,
				Hide: []gate.PathGroup{
					{Paths: []string{"*.key"}, Source: fullDocumentAt(37, 18)},
					{Paths: []string{"/repo/secrets"}, Source: fullDocumentAt(37, 27)},
				},
				Show:   []gate.ShowEntry{{Path: "secrets/README.md", Source: fullDocumentAt(38, 18)}},
				Ask:    []gate.Rule{{Reason: "tags are public", Commands: []string{"git tag"}, Source: fullDocumentAt(40, 17)}},
				Deny:   []gate.Rule{{Reason: "commits need review", Commands: []string{"git commit"}, Source: fullDocumentAt(41, 18)}},
				Source: fullDocumentAt(34, 7),
			}}},
		{"policy from a file is read at load", func(c *Config) any { return loadedProfile(t, c, "responder").Policy }, &gate.PolicySpec{
			Engine: "starlark", File: guardFile, Code: string(guardCode), Name: "guard.star",
			Source: fullDocumentAt(42, 5), Timeout: int64(250 * time.Millisecond),
		}},
		{"inline policy", func(c *Config) any { return loadedProfile(t, c, "auditor").Policy }, &gate.PolicySpec{
			Engine: "javascript", Code: "function preCommand(ctx) { return \"allow\"; }\n", Name: "inline", Source: fullDocumentAt(49, 5),
		}},
		{"a profile with a null body has no rules", func(c *Config) any { return loadedProfile(t, c, "guest") },
			gate.ProfileSpec{Name: "guest", Source: fullDocumentAt(53, 3)}},
		{"limits with a size suffix", func(c *Config) any { return c.Limits }, Limits{
			WallTime: 90 * time.Second, OutputBytes: 16 << 20, Commands: 10000, BackgroundJobs: 8, Depth: 50,
		}},
		{"ask_timeout", func(c *Config) any { return c.AskTimeout }, 5 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.got(cfg); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// TestParseDocumentAccepts covers valid spellings the full document does not.
func TestParseDocumentAccepts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		doc   string
		check func(t *testing.T, cfg *Config)
	}{
		{"an empty document is an empty workspace", "", func(t *testing.T, cfg *Config) {
			if len(cfg.Mounts) != 0 || len(cfg.Profiles) != 0 || cfg.Default != "" {
				t.Errorf("got %+v, want an empty config", cfg)
			}
		}},
		{"a comment-only document is an empty workspace", "# nothing yet\n", func(t *testing.T, cfg *Config) {
			if len(cfg.Mounts) != 0 || len(cfg.Profiles) != 0 {
				t.Errorf("got %+v, want an empty config", cfg)
			}
		}},
		{"a null mount body is a default rw memory mount", "mounts:\n  /scratch:\n", func(t *testing.T, cfg *Config) {
			want := []vfs.MountSpec{{Prefix: "/scratch"}}
			if !reflect.DeepEqual(cfg.Mounts, want) {
				t.Errorf("mounts = %#v, want %#v", cfg.Mounts, want)
			}
		}},
		{"show as a plain list has no mode", "profiles:\n  p:\n    paths:\n      show: [/data/pub]\n", func(t *testing.T, cfg *Config) {
			want := []gate.ShowEntry{{Path: "/data/pub", Source: "ws.yaml:4:14"}}
			if got := cfg.Profiles[0].Show; !reflect.DeepEqual(got, want) {
				t.Errorf("show = %#v, want %#v", got, want)
			}
		}},
		{"an alias shares one rule, citing where it was written", "profiles:\n  a:\n    commands:\n      deny: [&push {reason: CI, command: git push}]\n  b:\n    commands:\n      deny: [*push]\n",
			func(t *testing.T, cfg *Config) {
				want := []gate.Rule{{Reason: "CI", Commands: []string{"git push"}, Source: "ws.yaml:4:14"}}
				for _, p := range cfg.Profiles {
					if !reflect.DeepEqual(p.Deny, want) {
						t.Errorf("profile %s deny = %#v, want %#v", p.Name, p.Deny, want)
					}
				}
			}},
		{"an empty reason is allowed", "profiles:\n  p:\n    commands:\n      ask: [{reason: , command: rm}]\n", func(t *testing.T, cfg *Config) {
			if got := cfg.Profiles[0].Ask[0]; got.Reason != "" || !reflect.DeepEqual(got.Commands, []string{"rm"}) {
				t.Errorf("ask = %#v", got)
			}
		}},
		{"a profile may narrow the implicit /tmp", "profiles:\n  p:\n    cwd: /tmp/work\n    mounts:\n      /tmp: {mode: ro}\n", func(t *testing.T, cfg *Config) {
			if !cfg.Profiles[0].Mounts["/tmp"].ReadOnly || cfg.Profiles[0].Cwd != "/tmp/work" {
				t.Errorf("profile = %#v", cfg.Profiles[0])
			}
		}},
		{"plain integer and KiB sizes", "limits: {output_bytes: 4096}\n", func(t *testing.T, cfg *Config) {
			if cfg.Limits.OutputBytes != 4096 {
				t.Errorf("output_bytes = %d, want 4096", cfg.Limits.OutputBytes)
			}
		}},
		{"KiB suffix", "limits: {output_bytes: 512KiB}\n", func(t *testing.T, cfg *Config) {
			if cfg.Limits.OutputBytes != 512<<10 {
				t.Errorf("output_bytes = %d, want %d", cfg.Limits.OutputBytes, 512<<10)
			}
		}},
		{"memory budget, mount size and quota", "limits: {memory: 256MiB}\nmounts:\n  /scratch: {size: 1GiB}\n  /repo: {source: 'host:.', quota: 10MiB}\n", func(t *testing.T, cfg *Config) {
			if cfg.Limits.Memory != 256<<20 {
				t.Errorf("memory = %d, want %d", cfg.Limits.Memory, 256<<20)
			}
			if cfg.Mounts[0].Size != 1<<30 || cfg.Mounts[1].Quota != 10<<20 {
				t.Errorf("mounts = %#v", cfg.Mounts)
			}
		}},
		{"GiB suffix", "limits: {output_bytes: 2GiB}\n", func(t *testing.T, cfg *Config) {
			if cfg.Limits.OutputBytes != 2<<30 {
				t.Errorf("output_bytes = %d, want %d", cfg.Limits.OutputBytes, int64(2<<30))
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := Parse("ws.yaml", []byte(tt.doc))
			if err != nil {
				t.Fatalf("ParseDocument: %v", err)
			}
			tt.check(t, cfg)
		})
	}
}

func TestLoadConfigMissingFileNamesIt(t *testing.T) {
	t.Parallel()
	_, err := Load("testdata/document/absent.yaml")
	if err == nil || !strings.Contains(err.Error(), "testdata/document/absent.yaml") {
		t.Fatalf("err = %v, want an error naming the file", err)
	}
}

// TestFullDocumentProfilesCompile checks the loader's output against the
// gate's own contract: a document that loads is one whose profiles compile.
func TestFullDocumentProfilesCompile(t *testing.T) {
	t.Parallel()
	cfg := loadFullDocument(t)
	mounts := make([]gate.Mount, 0, len(cfg.Mounts))
	for _, m := range cfg.Mounts {
		mounts = append(mounts, gate.Mount{Prefix: m.Prefix, ReadOnly: m.ReadOnly})
	}
	for _, spec := range cfg.Profiles {
		t.Run(spec.Name, func(t *testing.T) {
			t.Parallel()
			if _, err := gate.Compile(spec, mounts, policyEngines); err != nil {
				t.Errorf("gate.Compile: %v", err)
			}
		})
	}
}
