package rest

import (
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// openAPIDocument is the part of docs/openapi.yaml the checks read.
type openAPIDocument struct {
	OpenAPI string                                 `yaml:"openapi"`
	Paths   map[string]map[string]openAPIOperation `yaml:"paths"`
}

type openAPIOperation struct {
	Security  []map[string][]string `yaml:"security"`
	Responses map[string]any        `yaml:"responses"`
}

func readOpenAPI(t *testing.T) (openAPIDocument, string) {
	t.Helper()
	data, err := os.ReadFile("../docs/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc openAPIDocument
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("docs/openapi.yaml: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.0") {
		t.Fatalf("openapi: %q, want 3.0.x", doc.OpenAPI)
	}
	return doc, string(data)
}

// TestOpenAPIMatchesRoutes: the document describes exactly the routes the
// server registers, says which need the host token (agent routes take it
// as one of their options: `security: [{}, {hostToken: []}]`), that a
// session's operations take the session's token, and documents the
// answers of the daemon's hygiene checks on every route (G-10.6).
func TestOpenAPIMatchesRoutes(t *testing.T) {
	t.Parallel()
	doc, _ := readOpenAPI(t)
	registered := map[string]route{}
	for _, rt := range (&Server{}).routes() {
		registered[strings.ToLower(rt.method)+" "+rt.path] = rt
	}
	documented := map[string]openAPIOperation{}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			documented[method+" "+path] = op
		}
	}
	for key, rt := range registered {
		op, ok := documented[key]
		if !ok {
			t.Errorf("route %s is not in docs/openapi.yaml", key)
			continue
		}
		hostOnly, sessionToken := len(op.Security) > 0, false
		for _, req := range op.Security {
			_, host := req["hostToken"]
			_, sess := req["sessionToken"]
			hostOnly = hostOnly && host
			sessionToken = sessionToken || sess
		}
		if hostOnly != rt.hostOnly {
			t.Errorf("%s: document says host token required = %v, server says %v", key, hostOnly, rt.hostOnly)
		}
		if inSession := strings.HasPrefix(rt.path, "/v1/sessions/{id}/"); inSession && !sessionToken {
			t.Errorf("%s: a session's operation does not document the session token", key)
		}
		if _, ok := op.Responses["401"]; ok != (len(op.Security) > 0) {
			t.Errorf("%s: a 401 response documented = %v, but a token taken = %v", key, ok, len(op.Security) > 0)
		}
		want := []string{"421", "403"}
		if rt.method == "POST" {
			want = append(want, "413", "415")
		}
		for _, code := range want {
			if _, ok := op.Responses[code]; !ok {
				t.Errorf("%s: the %s of the daemon's request checks is not documented", key, code)
			}
		}
	}
	for key := range documented {
		if _, ok := registered[key]; !ok {
			t.Errorf("docs/openapi.yaml documents %s, which the server does not serve", key)
		}
	}
}

// TestOpenAPIReferencesResolve: every $ref names a component the document
// defines.
func TestOpenAPIReferencesResolve(t *testing.T) {
	t.Parallel()
	_, text := readOpenAPI(t)
	var tree map[string]any
	if err := yaml.Unmarshal([]byte(text), &tree); err != nil {
		t.Fatal(err)
	}
	var refs []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, child := range v {
				if s, ok := child.(string); ok && k == "$ref" {
					refs = append(refs, s)
				}
				walk(child)
			}
		case []any:
			for _, child := range v {
				walk(child)
			}
		}
	}
	walk(tree)
	if len(refs) == 0 {
		t.Fatal("no $ref found; the walk is broken")
	}
	for _, ref := range refs {
		node := any(tree)
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			m, ok := node.(map[string]any)
			if !ok {
				node = nil
				break
			}
			node = m[part]
		}
		if node == nil {
			t.Errorf("$ref %s resolves to nothing", ref)
		}
	}
}
