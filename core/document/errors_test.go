package document

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// badDocument sits beside the test fixtures so relative host directories and
// policy files resolve against testdata/document (G-1.1).
const badDocument = "testdata/document/bad.yaml"

// TestParseDocumentRejects pins, for each kind of mistake, the position and
// key a user is pointed at (G-1.1): "FILE:LINE:COL: KEY: MESSAGE".
func TestParseDocumentRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		doc  string
		at   string // "LINE:COL", or "LINE" when YAML gives no column
		key  string
		msg  string // a fragment of the message
	}{
		{"unknown top-level key", "mount:\n  /a: {}\n",
			"1:1", "", `unknown key "mount" (did you mean "mounts"?)`},
		{"unknown key names its section", "profiles:\n  responder:\n    commands:\n      alow: [cat]\n",
			"4:7", "profiles.responder.commands", `unknown key "alow" (did you mean "allow"?)`},
		{"a list where a mapping is needed", "mounts: [/a]\n",
			"1:9", "mounts", "want a mapping, got a list"},
		{"a string where a profile is needed", "profiles:\n  responder: cat\n",
			"2:14", "profiles.responder", `want a mapping, got "cat"`},
		{"mode not rw or ro", "mounts:\n  /a: {mode: rx}\n",
			"2:14", "mounts./a.mode", `mode must be rw or ro, got "rx"`},
		{"source not memory or host", "mounts:\n  /a:\n    source: disk\n",
			"3:13", "mounts./a.source", `source must be memory or host:DIR, got "disk"`},
		{"host directory missing", "mounts:\n  /a:\n    source: host:./nowhere\n",
			"3:13", "mounts./a.source", "no such file or directory"},
		{"host source that is a file", "mounts:\n  /a:\n    source: host:guard.star\n",
			"3:13", "mounts./a.source", "is not a directory"},
		{"files on a host mount", "mounts:\n  /a:\n    files: {x: y}\n    source: host:./repo\n",
			"3:5", "mounts./a", "files seed memory mounts only"},
		{"relative mount prefix", "mounts:\n  data: {}\n",
			"2:3", "mounts", `mount prefix "data" must be an absolute path like /data`},
		{"root mount prefix", "mounts:\n  /: {}\n",
			"2:3", "mounts", `mount prefix "/" is not allowed`},
		{"unclean mount prefix", "mounts:\n  /data/: {}\n",
			"2:3", "mounts", `write "/data"`},
		{"seed file outside the mount", "mounts:\n  /a:\n    files:\n      ../etc/passwd: x\n",
			"4:7", "mounts./a.files", `file path "../etc/passwd" must be relative to the mount`},
		{"unbalanced [ in a glob", "profiles:\n  p:\n    paths:\n      hide: [\"/vault/[abc\"]\n",
			"4:14", "profiles.p.paths.hide[0]", "unbalanced ["},
		{"** inside a component", "profiles:\n  p:\n    paths:\n      hide: [/vault/a**]\n",
			"4:14", "profiles.p.paths.hide[0]", "** must be a whole path component"},
		{"relative profile-level path", "profiles:\n  p:\n    commands:\n      deny: [{reason: x, paths: [vault/*]}]\n",
			"4:34", "profiles.p.commands.deny[0].paths[0]", `path pattern "vault/*" must be absolute`},
		{"relative show path", "profiles:\n  p:\n    paths:\n      show: {vault/public: ro}\n",
			"4:14", "profiles.p.paths.show", "must be absolute"},
		{"rule with command and commands", "profiles:\n  p:\n    commands:\n      deny:\n        - command: rm\n          commands: [mv]\n",
			"6:11", "profiles.p.commands.deny[0]", "a rule takes command or commands, not both"},
		{"rule covering nothing", "profiles:\n  p:\n    commands:\n      ask: [{reason: why}]\n",
			"4:13", "profiles.p.commands.ask[0]", "rule covers nothing"},
		{"rule with an empty commands list covers nothing", "profiles:\n  p:\n    commands:\n      ask: [{reason: why, commands: []}]\n",
			"4:13", "profiles.p.commands.ask[0]", "rule covers nothing"},
		{"empty command pattern", "profiles:\n  p:\n    commands:\n      allow: [cat, \"  \"]\n",
			"4:20", "profiles.p.commands.allow[1]", "empty command pattern"},
		{"allow left null would mean everything", "profiles:\n  p:\n    commands:\n      allow:\n",
			"4:13", "profiles.p.commands.allow", "want a list, got nothing (null)"},
		{"allow entry with a reason", "profiles:\n  p:\n    commands:\n      allow: [{reason: x, command: cat}]\n",
			"4:15", "profiles.p.commands.allow[0]", "allow takes command patterns only"},
		{"allow at mount level", "mounts:\n  /repo: {}\nprofiles:\n  p:\n    mounts:\n      /repo:\n        commands:\n          allow: [git]\n",
			"8:11", "profiles.p.mounts./repo.commands", "mount-level commands carry ask and deny only"},
		{"mount rules for an undeclared mount", "mounts:\n  /repo: {}\nprofiles:\n  p:\n    mounts:\n      /rpeo: {mode: ro}\n",
			"6:7", "profiles.p.mounts", `"/rpeo" is not a mount of this workspace`},
		{"mount-level pattern outside the mount", "mounts:\n  /repo: {}\nprofiles:\n  p:\n    mounts:\n      /repo:\n        paths: {hide: [/vault/x]}\n",
			"7:24", "profiles.p.mounts./repo.paths.hide[0]", "lies outside the mount /repo"},
		{"profile raising a read-only mount", "mounts:\n  /repo: {mode: ro}\nprofiles:\n  p:\n    mounts:\n      /repo: {mode: rw}\n",
			"6:21", "profiles.p.mounts./repo.mode", "never raise it"},
		{"default naming an undefined profile", "profiles:\n  default: responder\n  auditor: {}\n",
			"2:12", "profiles.default", `names undefined profile "responder" (profiles: auditor)`},
		{"a profile named default", "profiles:\n  default:\n    cwd: /\n",
			"3:5", "profiles.default", `a profile can't be named "default"`},
		{"cwd outside every mount", "mounts:\n  /runbook: {}\nprofiles:\n  p:\n    cwd: /runbok\n",
			"5:10", "profiles.p.cwd", "cwd /runbok is not inside any mount (/runbook, /tmp)"},
		{"env name that is no variable", "profiles:\n  p:\n    env: {MY-VAR: x}\n",
			"3:11", "profiles.p.env", `"MY-VAR" is not a variable name`},
		{"vars.hide with a space", "profiles:\n  p:\n    vars: {hide: [\"AWS KEY\"]}\n",
			"3:19", "profiles.p.vars.hide[0]", `"AWS KEY" is not a variable name`},
		{"unknown policy engine", "profiles:\n  p:\n    policy: {engine: python, source: x}\n",
			"3:22", "profiles.p.policy.engine", `engine must be starlark or javascript, got "python"`},
		{"policy with file and source", "profiles:\n  p:\n    policy:\n      engine: starlark\n      file: guard.star\n      source: x\n",
			"6:7", "profiles.p.policy", "a policy takes file or source, not both"},
		{"policy with neither file nor source", "profiles:\n  p:\n    policy:\n      engine: starlark\n",
			"4:7", "profiles.p.policy", "policy needs its program"},
		{"policy without an engine", "profiles:\n  p:\n    policy: {file: guard.star}\n",
			"3:13", "profiles.p.policy", "policy needs engine"},
		{"policy file that does not exist", "profiles:\n  p:\n    policy:\n      engine: starlark\n      file: gaurd.star\n",
			"5:13", "profiles.p.policy.file", "no such file or directory"},
		{"policy timeout without a unit", "profiles:\n  p:\n    policy: {engine: starlark, source: x, timeout: 100}\n",
			"3:52", "profiles.p.policy.timeout", `want a positive duration like 30s`},
		{"output size with a decimal unit", "limits:\n  output_bytes: 16MB\n",
			"2:17", "limits.output_bytes", `want a positive size like 16MiB`},
		{"zero commands", "limits:\n  commands: 0\n",
			"2:13", "limits.commands", "want a positive whole number"},
		{"memory in words", "limits:\n  memory: lots\n",
			"2:11", "limits.memory", `want a positive size like 16MiB, 512KiB or 1048576, got "lots"`},
		{"mount size in words", "mounts:\n  /a:\n    size: lots\n",
			"3:11", "mounts./a.size", `want a positive size like 16MiB, 512KiB or 1048576, got "lots"`},
		{"mount quota of zero", "mounts:\n  /a:\n    source: host:.\n    quota: 0\n",
			"4:12", "mounts./a.quota", `want a positive size like 16MiB`},
		{"size on a host mount", "mounts:\n  /a:\n    source: host:.\n    size: 1MiB\n",
			"4:5", "mounts./a", "size bounds memory mounts only; a host mount takes a write quota"},
		{"quota on a memory mount", "mounts:\n  /a:\n    quota: 1MiB\n",
			"3:5", "mounts./a", "quota bounds host mounts only; a memory mount takes a size"},
		{"ask_timeout without a unit", "ask_timeout: 5\n",
			"1:14", "ask_timeout", "want a positive duration"},
		{"duplicate key", "mounts:\n  /a: {mode: ro}\n  /a: {mode: rw}\n",
			"3:3", "mounts", `duplicate key "/a" (first at line 2)`},
		{"hide group without paths", "profiles:\n  p:\n    paths:\n      hide: [{reason: secret}]\n",
			"4:14", "profiles.p.paths.hide[0]", "hide group hides nothing"},
		{"merge keys", "profiles:\n  base: &base {cwd: /}\n  p:\n    <<: *base\n",
			"4:5", "profiles.p", "merge keys (<<) are not supported"},
		{"a second YAML document", "mounts: {}\n---\nprofiles: {}\n",
			"3:1", "", "a workspace file holds one YAML document"},
		{"YAML syntax error", "mounts:\n  /a: {mode: ro\nprofiles: {}\n",
			"2", "", `invalid YAML: did not find expected ',' or '}'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := Parse(badDocument, []byte(tt.doc))
			if err == nil {
				t.Fatalf("loaded %+v, want an error at %s", cfg, tt.at)
			}
			var docErr *Error
			if !errors.As(err, &docErr) {
				t.Fatalf("err = %T %v, want a *Error", err, err)
			}
			wantPrefix := badDocument + ":" + tt.at + ": "
			if tt.key != "" {
				wantPrefix += tt.key + ": "
			}
			if text := err.Error(); !strings.HasPrefix(text, wantPrefix) || !strings.Contains(text, tt.msg) {
				t.Errorf("error = %q\nwant it to start with %q and contain %q", text, wantPrefix, tt.msg)
			}
			if got := fmt.Sprintf("%s|%s", docErr.File, docErr.Key); got != badDocument+"|"+tt.key {
				t.Errorf("File|Key = %q, want %q", got, badDocument+"|"+tt.key)
			}
		})
	}
}

func TestDocumentErrorFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  Error
		want string
	}{
		{"full position and key", Error{File: "workspace.yaml", Line: 12, Col: 7, Key: "profiles.responder.commands", Msg: `unknown key "alow"`},
			`workspace.yaml:12:7: profiles.responder.commands: unknown key "alow"`},
		{"line only", Error{File: "ws.yaml", Line: 3, Msg: "invalid YAML: x"}, "ws.yaml:3: invalid YAML: x"},
		{"no position", Error{File: "ws.yaml", Msg: "invalid YAML: x"}, "ws.yaml: invalid YAML: x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzParseDocument: no input may panic the loader, and every refusal is a
// *Error naming the document.
func FuzzParseDocument(f *testing.F) {
	f.Add([]byte("mounts: {/a: {files: {x: y}}}\nprofiles: {default: p, p: {commands: {allow: []}}}\n"))
	f.Add([]byte("profiles:\n  p:\n    commands:\n      deny: [&r {reason: x, paths: [/a/*]}, *r]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(badDocument, data)
		if err == nil {
			if cfg == nil {
				t.Fatal("nil config without an error")
			}
			return
		}
		var docErr *Error
		if !errors.As(err, &docErr) || docErr.File != badDocument {
			t.Fatalf("err = %T %v, want a *Error naming %s", err, err, badDocument)
		}
	})
}
