package rest

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const amendDocument = `# keep this comment
mounts:
  /runbook:
    files: {frozen/restore.md: "1. page\n"}
profiles:
  responder:
    cwd: /runbook
    commands:
      allow: [echo, cat]
      ask:
        - {reason: frozen needs sign-off, paths: [/runbook/frozen/*]}  # keep
`

// POST /v1/asks/{id}/amend writes the exception for exactly the asked
// command (its redirection's target included) into the document, allows
// the ask, and the asked line then runs; a document edited since the
// daemon loaded it is not amended (412) and the ask stays pending.
func TestAmendOverREST(t *testing.T) {
	t.Parallel()
	d := newDaemonOf(t, amendDocument, WithAgentProfiles("responder"))
	sid := d.newSession(t, "agent", "responder")
	id := d.pendingAsk(t, sid, "echo x > frozen/restore.md")
	r := d.call(t, "POST", "/v1/asks/"+id+"/amend", testToken, `{"note":"fine"}`)
	if r.status != http.StatusOK {
		t.Fatalf("amend: %d %s", r.status, r.body)
	}
	var out Amended
	r.decode(t, &out)
	doc := filepath.Join(filepath.Dir(d.ledger), "workspace.yaml")
	data, _ := os.ReadFile(doc)
	want := "except: [{command: echo x, cwd: /runbook, paths: [/runbook/frozen/restore.md]}]}  # keep"
	if out.Ask.Outcome != "allow" || out.Amendment.After != "run" || !strings.Contains(out.Amendment.Diff, want) || !strings.Contains(string(data), want) || !strings.HasPrefix(string(data), "# keep this comment\n") {
		t.Fatalf("record %+v amendment %+v document\n%s", out.Ask, out.Amendment, data)
	}
	for range 2 { // the allowed retry, then the exception
		if res := d.execute(t, sid, "echo x > frozen/restore.md", true); res.ExitCode != 0 {
			t.Fatalf("after the amendment: %+v", res)
		}
	}
	if res := d.execute(t, sid, "echo x > frozen/other.md", false); res.ExitCode != 126 {
		t.Fatalf("another path must still ask: %+v", res)
	}

	id = d.pendingAsk(t, sid, "echo y > frozen/restore.md")
	os.WriteFile(doc, append(data, "# edited by hand\n"...), 0o600)
	if r := d.call(t, "POST", "/v1/asks/"+id+"/amend", testToken, ``); r.status != http.StatusPreconditionFailed {
		t.Fatalf("amend of an edited document: %d %s", r.status, r.body)
	}
	if rec := d.getAsk(t, id); rec.State() != "pending" {
		t.Fatalf("the ask was answered: %+v", rec)
	}
}
