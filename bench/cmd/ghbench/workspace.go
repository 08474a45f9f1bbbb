package main

import (
	"fmt"
	"time"

	"gatehouse/core"
	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// gatedProfileName is the profile of the gating-overhead figure;
// rulesProfileName is the same profile without its policy program, which
// splits the overhead between the rules and the program.
const (
	gatedProfileName = "gated"
	rulesProfileName = "rules-only"
)

// preOpsProgram is a pre_ops hook shaped like a real one: it reads the op
// and compares a prefix, and refuses nothing the benchmark lines do, so
// every op pays for the whole call.
const preOpsProgram = `
def pre_ops(ctx):
    op = ctx["op"]
    if op["write"] and op["path"].startswith("/data/frozen/"):
        return {"deny": "the frozen runbook is edited in review"}
    return None
`

// gatedProfile is a 50-rule profile (command and path rules, hides and
// shows, counted as the gate benchmarks count them) with a Starlark pre_ops
// program; rules above 50 add path denies, hides and command asks over the
// tree in the same proportions, for how cost grows with rule count. None of
// its rules refuses the benchmark lines: it measures what judging costs,
// not what refusing saves.
func gatedProfile(rules int) gate.ProfileSpec {
	spec := gate.ProfileSpec{
		Name: gatedProfileName,
		Cwd:  "/data",
		Allow: []string{"find", "xargs", "grep", "wc", "cat", "sort", "uniq", "head", "cut",
			"echo", "ls", "rm", "mv", "cp", "sed", "tee", "tail", "tr"},
		Policy: &gate.PolicySpec{Engine: "starlark", Code: preOpsProgram, Name: "bench.star", Source: "ghbench"},
		Mounts: map[string]gate.MountRules{},
	}
	rule := func(reason string, commands, paths []string) gate.Rule {
		return gate.Rule{Reason: reason, Commands: commands, Paths: paths}
	}
	for _, c := range []string{"curl", "wget", "git push", "rm -r", "rm -rf", "dd", "nc", "ssh", "scp", "chmod 777"} {
		spec.Deny = append(spec.Deny, rule("not in an incident", []string{c}, nil))
	}
	for _, c := range []string{"rm", "mv", "cp * /logs/*", "sed -i", "tee /data/*", "sort -o", "tr * *", "tail -f"} {
		spec.Ask = append(spec.Ask, rule("needs sign-off", []string{c}, nil))
	}
	for i := range 12 {
		spec.Deny = append(spec.Deny, rule("secrets stay sealed", nil,
			[]string{fmt.Sprintf("/tree/d%04d/s%02d/*.secret", i*7, i%leavesPerTop)}))
	}
	for i := range 8 {
		spec.Ask = append(spec.Ask, rule("audit trail", []string{"cat", "grep", "head"},
			[]string{fmt.Sprintf("/logs/audit%d/*", i)}))
	}
	for _, p := range []string{"/tree/*/private", "/logs/*.gz", "/data/archive", "/tree/*/*/.git", "/logs/rotated", "/data/keys"} {
		spec.Hide = append(spec.Hide, gate.PathGroup{Reason: "operator only", Paths: []string{p}})
	}
	for _, p := range []string{"/data/archive/public", "/data/archive/readme", "/logs/rotated/today", "/data/keys/pub"} {
		spec.Show = append(spec.Show, gate.ShowEntry{Path: p, Mode: "ro"})
	}
	for i := 0; ruleCount(spec)+2 < rules; i++ {
		dir := fmt.Sprintf("/tree/d%04d/s%02d", i%1000, i%leavesPerTop)
		switch i % 3 {
		case 0:
			spec.Deny = append(spec.Deny, rule("secrets stay sealed", nil, []string{fmt.Sprintf("%s/*.secret%d", dir, i)}))
		case 1:
			spec.Hide = append(spec.Hide, gate.PathGroup{Paths: []string{fmt.Sprintf("%s/private%d", dir, i)}})
		case 2:
			spec.Ask = append(spec.Ask, rule("needs sign-off", []string{fmt.Sprintf("tool%d push", i)}, nil))
		}
	}
	// Two mount-level rules make 50, and give the mount layer work too.
	spec.Mounts["/logs"] = gate.MountRules{ReadOnly: true,
		Deny: []gate.Rule{rule("logs are evidence", []string{"truncate"}, nil)}}
	spec.Mounts["/data"] = gate.MountRules{
		Deny: []gate.Rule{rule("no shredding", []string{"shred"}, nil)}}
	return spec
}

func rulesOnlyProfile(rules int) gate.ProfileSpec {
	spec := gatedProfile(rules)
	spec.Name, spec.Policy = rulesProfileName, nil
	return spec
}

// ruleCount counts a profile's rules the way the gate benchmarks do.
func ruleCount(spec gate.ProfileSpec) int {
	n := len(spec.Deny) + len(spec.Ask) + len(spec.Hide) + len(spec.Show)
	for _, m := range spec.Mounts {
		n += len(m.Deny) + len(m.Ask) + len(m.Hide) + len(m.Show)
	}
	return n
}

// benchWorkspace mounts the tree as memory mounts /tree, /logs and /data,
// with the gated profile defined beside the unrestricted default. durable
// keeps the mounts in the workspace's (temporary) ledger, as a document's
// are (G-5.6): each line then reads the ledger's mount state before it
// runs and saves what it changed after.
func benchWorkspace(n, rules int, durable bool) (*core.Workspace, error) {
	parts := benchTree(n)
	var mounts []vfs.MountSpec
	for _, name := range mountNames {
		mounts = append(mounts, vfs.MountSpec{Prefix: "/" + name, Files: parts[name]})
	}
	opts := []core.Option{core.WithProfiles(gatedProfile(rules), rulesOnlyProfile(rules)),
		// A 1M-file find runs for longer than the 30 s default.
		core.WithLimits(core.Limits{WallTime: time.Hour, OutputBytes: 1 << 30})}
	if durable {
		opts = append(opts, core.WithDurableMounts("ghbench"))
	}
	return core.NewWorkspace(mounts, opts...)
}
