//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"gatehouse/store"
	"gatehouse/store/postgres"
	"gatehouse/store/postgres/pgtest"
	"gatehouse/store/storetest"
)

// The tests in this file run gatehouse processes (exec, serve, allow,
// migrate, token) on a ledger in PostgreSQL: each test gets a schema of
// its own on the test binary's throwaway server (see pgtest). They skip
// without PostgreSQL's binaries, and fail then when
// GATEHOUSE_TEST_POSTGRES=require (CI).

// pgCLI is a cli whose processes use a fresh PostgreSQL ledger.
func pgCLI(t *testing.T) (*cli, *pgtest.Server) {
	t.Helper()
	srv := pgtest.Shared(t)
	return &cli{t: t, db: srv.Schema(t)}, srv
}

// pgLedger opens the cli's ledger in this process.
func (c *cli) pgLedger() *postgres.Ledger {
	c.t.Helper()
	l, err := postgres.Open(context.Background(), c.db)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { l.Close() })
	return l
}

// waitConnectionsGone waits until the server holds no connection named
// app: the processes that opened them are dead and whatever they had sent
// has ended, committed or rolled back.
func (c *cli) waitConnectionsGone(app string) {
	c.t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c.db)
	if err != nil {
		c.t.Fatal(err)
	}
	defer conn.Close(ctx)
	for deadline := time.Now().Add(20 * time.Second); ; {
		var n int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n); err != nil {
			c.t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%d connections of %s still open on the server", n, app)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pgDaemon is a `gatehouse serve` process on a PostgreSQL ledger.
type pgDaemon struct {
	url    string
	token  string // the host token, when this daemon issued it
	banner string
	cmd    *exec.Cmd
	// bearers holds, by session id, what execute presents: the token the
	// session's creation returned, or a host token for a session another
	// door made (see useBearer).
	bearers sync.Map
}

// useBearer makes execute present token for session.
func (d *pgDaemon) useBearer(session, token string) { d.bearers.Store(session, token) }

// startServePG runs `gatehouse serve` on the cli's ledger and reads its
// whole banner (the ledger's first daemon shows the host token there).
func (c *cli) startServePG(ws string) *pgDaemon {
	c.t.Helper()
	return c.startServePGAs(ws, "")
}

// startServePGAs starts a daemon whose connections carry the
// application_name app (when not ""), so the server's view of them can be
// told from every other client's.
func (c *cli) startServePGAs(ws, app string) *pgDaemon {
	c.t.Helper()
	db := c.db
	if app != "" {
		db += "&application_name=" + app
	}
	cmd := exec.Command(os.Args[0], "serve", "-w", ws, "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1", "GATEHOUSE_DB="+db)
	out, err := cmd.StdoutPipe()
	if err != nil {
		c.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
	d := &pgDaemon{cmd: cmd}
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		line := lines.Text()
		d.banner += line + "\n"
		if _, url, ok := strings.Cut(line, " on "); ok && strings.HasPrefix(url, "http://") {
			d.url = url
		}
		if token, ok := strings.CutPrefix(line, "  host token: "); ok && len(token) == 64 {
			d.token = token
		}
		if strings.HasPrefix(line, "  open to agents:") {
			go io.Copy(io.Discard, out)
			return d
		}
	}
	c.t.Fatalf("serve ended before its banner did:\n%s", d.banner)
	return nil
}

// answer posts an allow of ask id to the daemon with token and returns the
// status (0 when the request failed on the way).
func (d *pgDaemon) answer(id, token string) int {
	req, _ := http.NewRequest("POST", d.url+"/v1/asks/"+id+"/allow", strings.NewReader(`{"scope":"once"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// newSession creates a session of the workspace's default profile through
// the daemon and returns its id.
func (d *pgDaemon) newSession(t *testing.T) string {
	t.Helper()
	resp, err := http.Post(d.url+"/v1/sessions", "application/json", strings.NewReader(`{"agent_id":"tester"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil || s.ID == "" {
		t.Fatalf("create session: %s, %v", resp.Status, err)
	}
	d.useBearer(s.ID, s.Token)
	return s.ID
}

// execute runs line in session through the daemon's agent endpoint and
// returns the exit code and stdout (-1 when the request failed).
func (d *pgDaemon) execute(session, line string, wait bool) (int, string) {
	q := ""
	if !wait {
		q = "?wait=false"
	}
	body := strings.NewReader(`{"line":` + strconv.Quote(line) + `}`)
	req, err := http.NewRequest("POST", d.url+"/v1/sessions/"+session+"/execute"+q, body)
	if err != nil {
		return -1, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	if token, ok := d.bearers.Load(session); ok {
		req.Header.Set("Authorization", "Bearer "+token.(string))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return -1, err.Error()
	}
	defer resp.Body.Close()
	var res struct {
		Stdout   string `json:"stdout"`
		ExitCode int    `json:"exit_code"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		return -1, resp.Status
	}
	return res.ExitCode, res.Stdout
}

// pendingAsks waits until the ledger holds n pending asks and returns them.
func pendingAsks(t *testing.T, l store.Ledger, n int) []store.Record {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		pending, err := l.ListAsks(context.Background(), "", true)
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) >= n {
			return pending
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d pending asks, want %d", len(pending), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// G-10.7, G-10.5, G-11.4: a postgres:// URL in $GATEHOUSE_DB or --db is the
// ledger for every command: exec asks, list-asks shows it, allow answers
// it, and the retry in another process runs.
func TestPostgresLedgerAcrossProcesses(t *testing.T) {
	t.Parallel()
	c, _ := pgCLI(t)
	_, stderr, code := c.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "rm", "frozen/restore.md")
	m := askID.FindStringSubmatch(stderr)
	if code != 126 || m == nil {
		t.Fatalf("first exec: %d %q", code, stderr)
	}
	out, _, code := c.gatehouse("list-asks", "--db", c.db, "--json")
	if code != 0 || !strings.Contains(out, m[1]) {
		t.Fatalf("list-asks --db URL: %d %q", code, out)
	}
	if _, stderr, code := c.gatehouse("allow", m[1]); code != 0 {
		t.Fatalf("allow: %d %q", code, stderr)
	}
	if _, stderr, code := c.gatehouse("allow", m[1]); code != 1 || !strings.Contains(stderr, "already answered") {
		t.Errorf("second allow: %d %q, want 1 and already answered", code, stderr)
	}
	if _, stderr, code := c.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "rm", "frozen/restore.md"); code != 0 {
		t.Fatalf("retry after the allow: %d %q", code, stderr)
	}
}

// G-9.7, G-10.1, G-10.7: 8 `gatehouse exec` processes and agents of 2
// `serve` daemons retrying one allowed line at once, on one PostgreSQL
// ledger: exactly one of them runs it, every round. The answer comes from
// the second daemon, with the token the first one issued.
func TestPostgresAllowOnceAcrossProcessesAndDaemons(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts dozens of processes")
	}
	c, _ := pgCLI(t)
	ws := writeClaimsWorkspace(t)
	d1 := c.startServePG(ws)
	d2 := c.startServePG(ws)
	if d1.token == "" || d2.token != "" || !strings.Contains(d2.banner, "kept as a hash in the ledger") {
		t.Fatalf("the first daemon shows the token, the second says where it is:\n%s\n%s", d1.banner, d2.banner)
	}
	line := "cat secret.txt; sleep 1"
	for round := range 3 {
		session := fmt.Sprintf("pg-race-%d", round)
		args := []string{"exec", "-w", ws, "-s", session, "--", line}
		_, stderr, code := c.gatehouse(args...)
		m := askID.FindStringSubmatch(stderr)
		if code != 126 || m == nil {
			t.Fatalf("round %d, first: %d %q", round, code, stderr)
		}
		if status := d2.answer(m[1], d1.token); status != http.StatusOK {
			t.Fatalf("round %d: allow through the second daemon: %d", round, status)
		}
		// The CLI's session has no agent token: the daemons' racers
		// resume it as the host does.
		d1.useBearer(session, d1.token)
		d2.useBearer(session, d1.token)
		var ran atomic.Int32
		count := func(code int, stdout string) {
			if code == 0 && stdout == "the secret\n" {
				ran.Add(1)
			} else if code != 126 {
				t.Errorf("round %d: a racer ended %d %q", round, code, stdout)
			}
		}
		var wg sync.WaitGroup
		for _, d := range []*pgDaemon{d1, d2} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				count(d.execute(session, line, false))
			}()
		}
		for _, r := range c.execAll(8, args...) {
			count(r.code, r.stdout)
		}
		wg.Wait()
		if ran.Load() != 1 {
			t.Errorf("round %d: %d of 10 racers (8 exec, 2 daemons) ran the line allowed once, want 1", round, ran.Load())
		}
	}
}

// G-10.1, G-10.7: 1,000 asks answered by two daemons at once, each asked
// to allow every one of them: each ask gets exactly one success and one
// "already answered" (409), leaves exactly one grant, and the lines
// waiting on the first daemon are released by answers given through the
// second.
func TestPostgresThousandAsksAnsweredFromTwoHosts(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a thousand answers through two daemons")
	}
	c, _ := pgCLI(t)
	ws := writeClaimsWorkspace(t)
	d1 := c.startServePG(ws)
	d2 := c.startServePG(ws)
	l := c.pgLedger()
	ctx := context.Background()

	const waiting = 10
	results := make(chan string, waiting)
	var waitingSessions []string
	for range waiting {
		session := d1.newSession(t)
		waitingSessions = append(waitingSessions, session)
		go func() {
			code, out := d1.execute(session, "cat secret.txt", true)
			results <- fmt.Sprint(code, " ", out)
		}()
	}
	pendingAsks(t, l, waiting)
	const raised = 1000 - waiting
	for i := range raised {
		if _, _, err := l.RaiseAsk(ctx, storetest.Question(fmt.Sprint("s", i%20), "rm a", fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	asks := pendingAsks(t, l, 1000)

	var ok, conflict, other atomic.Int32
	var wg sync.WaitGroup
	for h, d := range []*pgDaemon{d1, d2} {
		ids := make(chan string)
		go func() {
			defer close(ids)
			for i := range asks {
				if h == 1 { // the second host answers from the other end
					i = len(asks) - 1 - i
				}
				ids <- asks[i].ID
			}
		}()
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for id := range ids {
					switch d.answer(id, d1.token) {
					case http.StatusOK:
						ok.Add(1)
					case http.StatusConflict:
						conflict.Add(1)
					default:
						other.Add(1)
					}
				}
			}()
		}
	}
	wg.Wait()
	if ok.Load() != 1000 || conflict.Load() != 1000 || other.Load() != 0 {
		t.Errorf("answers: %d succeeded, %d already answered, %d otherwise; want 1000, 1000, 0",
			ok.Load(), conflict.Load(), other.Load())
	}
	if pending, _ := l.ListAsks(ctx, "", true); len(pending) != 0 {
		t.Errorf("%d asks still pending", len(pending))
	}
	grants := 0
	for i := range 20 {
		gs, _ := l.ListGrants(ctx, fmt.Sprint("s", i))
		grants += len(gs)
	}
	for _, session := range waitingSessions {
		gs, _ := l.ListGrants(ctx, session)
		grants += len(gs)
	}
	if grants != 1000 {
		t.Errorf("%d grants for 1000 answered asks, want one each", grants)
	}
	for range waiting {
		select {
		case r := <-results:
			if r != "0 the secret\n" {
				t.Errorf("a line waiting on the first daemon ended %q, want it to run", r)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("a line waiting on the first daemon was not released")
		}
	}
}

// G-10.1, G-10.7: a daemon killed (SIGKILL) while it answers asks as fast
// as it is asked leaves every ask whole: answered with exactly its grant,
// or pending with none. The other daemon then answers the rest, is told
// "already answered" for the others, and releases a line waiting on it
// since before the kill.
func TestPostgresDaemonKilledMidAnswer(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills a daemon under load")
	}
	c, _ := pgCLI(t)
	ws := writeClaimsWorkspace(t)
	victimApp := fmt.Sprintf("gatehouse-victim-%d", time.Now().UnixNano())
	victim := c.startServePGAs(ws, victimApp)
	survivor := c.startServePG(ws)
	l := c.pgLedger()
	ctx := context.Background()

	released := make(chan string, 1)
	session := survivor.newSession(t)
	go func() {
		code, out := survivor.execute(session, "cat secret.txt", true)
		released <- fmt.Sprint(code, " ", out)
	}()
	waitingAsk := pendingAsks(t, l, 1)[0]
	const n = 300
	for i := range n - 1 {
		if _, _, err := l.RaiseAsk(ctx, storetest.Question("s1", "rm a", fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	asks := pendingAsks(t, l, n)
	// The waiting line's ask goes first, so the victim has answered it
	// before it dies.
	if status := victim.answer(waitingAsk.ID, victim.token); status != http.StatusOK {
		t.Fatalf("victim's first answer: %d", status)
	}

	var answered atomic.Int32
	ids := make(chan string)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range ids {
				if victim.answer(id, victim.token) == http.StatusOK {
					answered.Add(1)
				}
			}
		}()
	}
	killed := false
	for _, a := range asks {
		if !killed && answered.Load() >= n/3 {
			victim.cmd.Process.Signal(syscall.SIGKILL)
			killed = true
		}
		if a.ID != waitingAsk.ID {
			ids <- a.ID
		}
	}
	close(ids)
	wg.Wait()
	victim.cmd.Process.Signal(syscall.SIGKILL)
	victim.cmd.Wait()
	// A statement the victim sent before it died still runs to its end on
	// the server; the ledger is looked at once the server has let every one
	// of its connections go.
	c.waitConnectionsGone(victimApp)

	byAsk := map[string]int{}
	for _, s := range []string{"s1", session} {
		gs, _ := l.ListGrants(ctx, s)
		for _, g := range gs {
			byAsk[g.AskID]++
		}
	}
	all, _ := l.ListAsks(ctx, "", false)
	answeredBefore := 0
	for _, a := range all {
		switch {
		case a.Pending() && byAsk[a.ID] != 0:
			t.Errorf("pending ask %s left %d grants", a.ID, byAsk[a.ID])
		case !a.Pending() && byAsk[a.ID] != 1:
			t.Errorf("answered ask %s left %d grants, want 1", a.ID, byAsk[a.ID])
		case !a.Pending():
			answeredBefore++
		}
	}
	if answeredBefore == 0 || answeredBefore == n-1 {
		t.Logf("the kill fell after %d of %d answers; the test wants it mid-way", answeredBefore, n-1)
	}
	for _, a := range all {
		want := http.StatusOK
		if !a.Pending() {
			want = http.StatusConflict
		}
		if got := survivor.answer(a.ID, victim.token); got != want {
			t.Errorf("survivor's answer to %s = %d, want %d", a.ID, got, want)
		}
	}
	select {
	case r := <-released:
		if r != "0 the secret\n" {
			t.Errorf("the line waiting on the survivor ended %q, want it to run", r)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the line waiting on the survivor was not released")
	}
}

// G-10.7: every connection to the server dropped (pg_terminate_backend)
// while a line waits on a daemon: the answer given afterwards by another
// process releases it, and the daemon serves the next line as before. Not
// parallel: it ends every connection on the server.
func TestPostgresDroppedConnectionKeepsTheWaitingLine(t *testing.T) {
	c, srv := pgCLI(t)
	if !srv.Throwaway() {
		t.Skip("the server is not one this test may drop every connection to")
	}
	ws := writeClaimsWorkspace(t)
	d := c.startServePG(ws)
	l := c.pgLedger()
	released := make(chan string, 1)
	session := d.newSession(t)
	go func() {
		code, out := d.execute(session, "cat secret.txt", true)
		released <- fmt.Sprint(code, " ", out)
	}()
	ask := pendingAsks(t, l, 1)[0]
	time.Sleep(200 * time.Millisecond) // the daemon's line is waiting
	if err := srv.DropConnections(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := c.gatehouse("allow", ask.ID); code != 0 {
		t.Fatalf("allow after the drop: %d %q", code, stderr)
	}
	select {
	case r := <-released:
		if r != "0 the secret\n" {
			t.Fatalf("the waiting line ended %q, want it to run", r)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the waiting line was not released after the connections dropped")
	}
	if code, out := d.execute(session, "echo again", false); code != 0 || out != "again\n" {
		t.Errorf("the daemon's next line: %d %q", code, out)
	}
}

// gatehouseWith is gatehouse with extra environment variables.
func (c *cli) gatehouseWith(env []string, args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "GATEHOUSE_TEST_MAIN=1", "GATEHOUSE_DB="+c.db), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// G-10.7: `gatehouse migrate` copies a SQLite ledger into an empty
// PostgreSQL one: the pending ask is answered there and the retry runs on
// the copied session, a file an agent wrote is there, the host token
// beside the file still answers through a daemon on the copy, and a second
// copy into the same ledger is refused.
func TestMigrateCommand(t *testing.T) {
	t.Parallel()
	file := newCLI(t)
	_, stderr, _ := file.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "rm", "frozen/restore.md")
	pending := askID.FindStringSubmatch(stderr)
	_, stderr, _ = file.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "rm", "README.md")
	answered := askID.FindStringSubmatch(stderr)
	if pending == nil || answered == nil {
		t.Fatalf("the file ledger's asks: %q", stderr)
	}
	if _, stderr, code := file.gatehouse("allow", answered[1]); code != 0 {
		t.Fatalf("allow: %d %q", code, stderr)
	}
	if _, stderr, code := file.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "echo kept > notes.txt"); code != 0 {
		t.Fatalf("a file written on the file ledger: %d %q", code, stderr)
	}
	token, _, code := file.gatehouse("token")
	token = strings.TrimSpace(token)
	if code != 0 || len(token) != 64 {
		t.Fatalf("token of the file ledger: %d %q", code, token)
	}

	server, _ := pgCLI(t)
	for _, bad := range [][]string{
		{"migrate"},
		{"migrate", "--from", file.db},
		{"migrate", "--from", server.db, "--to", server.db},
		{"migrate", "--from", file.db, "--to", file.db + ".copy"},
	} {
		if _, stderr, code := file.gatehouse(bad...); code != 2 || !strings.Contains(stderr, "migrate") {
			t.Errorf("%q: %d %q, want a usage error", bad, code, stderr)
		}
	}
	missing := file.db + ".missing"
	if _, stderr, code := file.gatehouse("migrate", "--from", missing, "--to", server.db); code != 1 || !strings.Contains(stderr, "no such file") {
		t.Errorf("migrate from a missing file: %d %q", code, stderr)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("migrate from a missing file created it")
	}

	out, stderr, code := file.gatehouse("migrate", "--from", file.db, "--to", server.db)
	if code != 0 || !strings.Contains(out, "copied 1 sessions, 2 asks (1 pending), 1 grants and 1 mount files") ||
		!strings.Contains(out, "carries over") {
		t.Fatalf("migrate: %d %q %q", code, out, stderr)
	}
	if _, stderr, code := server.gatehouse("allow", pending[1]); code != 0 {
		t.Fatalf("allow on the copy: %d %q", code, stderr)
	}
	if _, stderr, code := server.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "rm", "frozen/restore.md"); code != 0 {
		t.Errorf("the retry on the copy: %d %q", code, stderr)
	}
	if out, stderr, code := server.gatehouse("exec", "-w", permissions, "-p", "responder", "--", "cat notes.txt; ls frozen"); code != 0 || out != "kept\n" {
		t.Errorf("the memory mount on the copy: %d %q %q; want the copied file and the approved removal", code, out, stderr)
	}
	d := server.startServePG(permissions)
	if d.token != "" || !strings.Contains(d.banner, "kept as a hash") {
		t.Errorf("a daemon on the copy issued a token although one carried over:\n%s", d.banner)
	}
	if out, stderr, code := server.gatehouseWith([]string{"GATEHOUSE_TOKEN=" + token}, "list-asks", "--all", "--json", "--server", d.url); code != 0 || !strings.Contains(out, pending[1]) {
		t.Errorf("list-asks through the daemon with the file's token: %d %q %q", code, out, stderr)
	}
	if _, stderr, code := file.gatehouse("migrate", "--from", file.db, "--to", server.db); code != 1 || !strings.Contains(stderr, "already holds") {
		t.Errorf("a second migrate into the copy: %d %q, want 1 and a refusal", code, stderr)
	}
}

// G-10.6, G-10.7: `gatehouse token` on a server ledger issues its first
// token once, then only rotates; a rotated token answers through every
// daemon on the ledger at once and the old one stops working.
func TestTokenCommandOnAServerLedger(t *testing.T) {
	t.Parallel()
	c, _ := pgCLI(t)
	first, stderr, code := c.gatehouse("token")
	first = strings.TrimSpace(first)
	if code != 0 || len(first) != 64 || !strings.Contains(stderr, "shown only now") {
		t.Fatalf("first token: %d %q %q", code, first, stderr)
	}
	if out, stderr, code := c.gatehouse("token"); code != 1 || out != "" || !strings.Contains(stderr, "--rotate") {
		t.Errorf("a second token without --rotate: %d %q %q, want 1 and a word about --rotate", code, out, stderr)
	}
	ws := writeClaimsWorkspace(t)
	d1, d2 := c.startServePG(ws), c.startServePG(ws)
	list := func(d *pgDaemon, token string) int {
		_, _, code := c.gatehouseWith([]string{"GATEHOUSE_TOKEN=" + token}, "list-asks", "--server", d.url)
		return code
	}
	if list(d1, first) != 0 || list(d2, first) != 0 {
		t.Fatal("the issued token does not answer through both daemons")
	}
	rotated, _, code := c.gatehouse("token", "--rotate")
	rotated = strings.TrimSpace(rotated)
	if code != 0 || len(rotated) != 64 || rotated == first {
		t.Fatalf("rotate: %d %q", code, rotated)
	}
	for i, d := range []*pgDaemon{d1, d2} {
		if list(d, first) == 0 || list(d, rotated) != 0 {
			t.Errorf("daemon %d after the rotation: the old token works or the new one does not", i+1)
		}
	}
	file := newCLI(t)
	if _, stderr, code := file.gatehouse("token", "--rotate"); code != 2 || !strings.Contains(stderr, ".token") {
		t.Errorf("token --rotate on a file ledger: %d %q, want a usage error naming the token file", code, stderr)
	}
}

// G-10.6, G-10.7: on a PostgreSQL ledger a session token is signed with
// the key the ledger keeps: the token one `serve` process gave works
// through a second process and through a process started after the first
// one stopped (a restart), and `gatehouse token --revoke-sessions` ends it
// on every daemon at once while the host token still opens the session.
func TestPostgresSessionTokensOutliveTheirDaemon(t *testing.T) {
	t.Parallel()
	c, _ := pgCLI(t)
	ws := writeClaimsWorkspace(t)
	d1, d2 := c.startServePG(ws), c.startServePG(ws)
	session := d1.newSession(t)
	token, _ := d1.bearers.Load(session)
	d2.useBearer(session, token.(string))
	if code, out := d2.execute(session, "echo through-d2", true); code != 0 || out != "through-d2\n" {
		t.Fatalf("the token through the second daemon: %d %q", code, out)
	}
	d1.cmd.Process.Signal(syscall.SIGTERM)
	d1.cmd.Wait()
	d3 := c.startServePG(ws)
	d3.useBearer(session, token.(string))
	if code, out := d3.execute(session, "echo after-restart", true); code != 0 || out != "after-restart\n" {
		t.Fatalf("the token through a daemon started after its own stopped: %d %q", code, out)
	}
	if _, stderr, code := c.gatehouse("token", "--revoke-sessions"); code != 0 {
		t.Fatalf("token --revoke-sessions: %d %q", code, stderr)
	}
	for i, d := range []*pgDaemon{d2, d3} {
		req, _ := http.NewRequest("POST", d.url+"/v1/sessions/"+session+"/execute", strings.NewReader(`{"line":"echo revoked"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token.(string))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("daemon %d after the revocation: %s, want 401", i+2, resp.Status)
		}
	}
	d3.useBearer(session, d1.token)
	if code, out := d3.execute(session, "echo host", true); code != 0 || out != "host\n" {
		t.Errorf("the host token after the revocation: %d %q", code, out)
	}
}
