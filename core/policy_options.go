package core

import (
	"gatehouse/core/gate"
	"gatehouse/core/gate/javascript"
	"gatehouse/core/gate/starlark"
	"gatehouse/core/vfs"
)

// WithPolicies adds coded Go policies (G-8.5) to every profile of the
// workspace: values implementing gate.PreCommand, gate.PreOps and/or
// gate.PreSession, or gate.Named wrapping one. They are consulted after the
// document's rules and before each profile's program (G-8.6). Records name
// each by its Name() (or its Go type) and cite this call as the rule.
func WithPolicies(p ...any) Option {
	site := callSite()
	named := make([]any, 0, len(p))
	for _, one := range p {
		var n gate.Named
		switch v := one.(type) {
		case gate.Named:
			n = v
		case *gate.Named:
			n = *v
		default:
			n = gate.Named{Policy: one}
		}
		if n.Source == "" {
			n.Source = site
		}
		named = append(named, n)
	}
	return func(o *options) { o.policies = append(o.policies, named...) }
}

// compileOptions are what every profile of the workspace compiles with: the
// policy engines, the coded policies, and the filesystem policy programs
// read through open().
func (o *options) compileOptions(fsys *vfs.VFS) []gate.CompileOption {
	return []gate.CompileOption{policyEngines(), gate.WithFS(fsys), gate.WithPolicies(o.policies...)}
}

// policyEngines are the languages a document's policy block may use
// (G-8.3); made per compilation rather than by an initialiser, which would
// allocate at every start of the program.
func policyEngines() gate.CompileOption {
	return gate.WithEngines(starlark.Engine{}, javascript.Engine{})
}
