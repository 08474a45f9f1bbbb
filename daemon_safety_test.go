package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The daemons are real processes here: the test binary re-executed as
// `gatehouse serve` or `gatehouse mcp` (see TestMain), so a fatal error —
// a Go stack overflow, a panic on a goroutine nobody recovers — shows as a
// dead process, and signals are real signals.

const safetyDocument = `mounts:
  /w:
    files: {a: "1\n"}
profiles:
  default: agent
  agent:
    commands:
      ask: [{reason: reading needs sign-off, command: cat}]
`

// deepLines are lines nested far past the parser's bound; each would have
// overflowed the goroutine stack of the daemon serving it.
var deepLines = []string{
	strings.Repeat("( ", 100000) + "echo x" + strings.Repeat(" )", 100000),
	"echo " + strings.Repeat("$(echo ", 60000) + "x" + strings.Repeat(")", 60000),
	"echo $(( " + strings.Repeat("(", 150000) + "1" + strings.Repeat(")", 150000) + " ))",
	"true" + strings.Repeat(" | true", 100000),
	"echo " + strings.Repeat("{a,", 100000) + "b" + strings.Repeat("}", 100000),
}

type daemon struct {
	t      *testing.T
	cmd    *exec.Cmd
	db     string
	doc    string
	exited chan error
}

func startDaemon(t *testing.T, args ...string) (*daemon, io.WriteCloser, *bufio.Reader) {
	t.Helper()
	dir := t.TempDir()
	d := &daemon{t: t, db: filepath.Join(dir, "ledger.db"), doc: filepath.Join(dir, "workspace.yaml"), exited: make(chan error, 1)}
	if err := os.WriteFile(d.doc, []byte(safetyDocument), 0o600); err != nil {
		t.Fatal(err)
	}
	args = append(args, "-w", d.doc, "--db", d.db)
	d.cmd = exec.Command(os.Args[0], args...)
	d.cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1")
	stdin, err := d.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := d.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	d.cmd.Stderr = &stderr
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.exited <- d.cmd.Wait() }()
	t.Cleanup(func() {
		d.cmd.Process.Kill()
		<-d.exited
		if t.Failed() {
			t.Logf("daemon stderr:\n%s", tail(stderr.String()))
		}
	})
	return d, stdin, bufio.NewReader(stdout)
}

func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}

// alive fails the test if the daemon has exited.
func (d *daemon) alive() {
	d.t.Helper()
	select {
	case err := <-d.exited:
		d.exited <- err
		d.t.Fatalf("the daemon died: %v", err)
	default:
	}
}

// signalAndTime sends sig and returns how long the daemon took to exit.
func (d *daemon) signalAndTime(sig os.Signal) time.Duration {
	d.t.Helper()
	start := time.Now()
	if err := d.cmd.Process.Signal(sig); err != nil {
		d.t.Fatal(err)
	}
	select {
	case err := <-d.exited:
		d.exited <- err
		return time.Since(start)
	case <-time.After(10 * time.Second):
		d.t.Fatalf("the daemon did not exit within 10s of %v", sig)
		return 0
	}
}

// asks reads the ledger the daemon left, through the CLI in another process.
func (d *daemon) asks() []map[string]any {
	d.t.Helper()
	cmd := exec.Command(os.Args[0], "list-asks", "--all", "--json", "--db", d.db)
	cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_MAIN=1")
	out, err := cmd.Output()
	if err != nil {
		d.t.Fatalf("list-asks: %v", err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(out, &recs); err != nil {
		d.t.Fatalf("list-asks output %q: %v", out, err)
	}
	return recs
}

var servingAddr = regexp.MustCompile(`on http://(\S+)`)

// restClient is an agent of a daemon: it keeps the token of every session
// it creates and presents it on requests about that session.
type restClient struct {
	t      *testing.T
	base   string
	tokens *sync.Map
}

func newRESTClient(t *testing.T, base string) restClient {
	return restClient{t: t, base: base, tokens: &sync.Map{}}
}

func (c restClient) post(path string, body any) (int, map[string]any, error) {
	data, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", c.base+path, bytes.NewReader(data))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if rest, ok := strings.CutPrefix(path, "/v1/sessions/"); ok {
		id, _, _ := strings.Cut(rest, "/")
		if token, ok := c.tokens.Load(id); ok {
			req.Header.Set("Authorization", "Bearer "+token.(string))
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	json.Unmarshal(raw, &out)
	if id, ok := out["id"].(string); ok && path == "/v1/sessions" {
		token, _ := out["token"].(string)
		c.tokens.Store(id, token)
	}
	return resp.StatusCode, out, nil
}

func startSafeServe(t *testing.T) (*daemon, restClient, string) {
	d, _, stdout := startDaemon(t, "serve", "--addr", "127.0.0.1:0")
	line, err := stdout.ReadString('\n')
	if err != nil {
		t.Fatalf("serve banner: %v", err)
	}
	m := servingAddr.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("serve banner %q", line)
	}
	go io.Copy(io.Discard, stdout)
	c := newRESTClient(t, "http://"+m[1])
	code, sess, err := c.post("/v1/sessions", map[string]any{"agent_id": "a"})
	if err != nil || (code != 200 && code != 201) {
		t.Fatalf("create session: %d %v %v", code, sess, err)
	}
	return d, c, sess["id"].(string)
}

// G-12.3: lines nested past every bound, sent to a real `gatehouse serve`,
// are refused with exit 2 and the daemon serves the next line.
func TestServeSurvivesDeepLines(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a daemon")
	}
	d, c, id := startSafeServe(t)
	for _, line := range deepLines {
		code, res, err := c.post("/v1/sessions/"+id+"/execute", map[string]any{"line": line})
		want := float64(2) // the parser's nesting bound
		if strings.HasPrefix(line, "echo $((") {
			want = 1 // bash's arithmetic recursion bound, a run-time error
		}
		if err != nil || code != 200 || res["exit_code"] != want {
			t.Errorf("deep line %.40q…: %d %v %v", line, code, res["stderr"], err)
		}
		d.alive()
	}
	code, res, err := c.post("/v1/sessions/"+id+"/execute", map[string]any{"line": "echo alive"})
	if err != nil || code != 200 || res["stdout"] != "alive\n" {
		t.Errorf("after the deep lines: %d %v %v", code, res, err)
	}
}

// G-12.3: SIGTERM or SIGINT ends `gatehouse serve` within two seconds while
// lines run (one sleeping, one waiting for a human's answer): the lines are
// cancelled, their callers get an answer, and the ask of the waiting line
// leaves the queue as "cancelled" in the ledger.
func TestServeStopsWithinTwoSecondsOfASignal(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts daemons")
	}
	for _, sig := range []os.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			d, c, id := startSafeServe(t)
			_, c2sess, _ := c.post("/v1/sessions", map[string]any{"agent_id": "b"})
			id2 := c2sess["id"].(string)
			results := make(chan map[string]any, 2)
			for _, run := range []struct{ id, line string }{{id, "sleep 1000"}, {id2, "cat /w/a"}} {
				go func() {
					_, res, _ := c.post("/v1/sessions/"+run.id+"/execute", map[string]any{"line": run.line})
					results <- res
				}()
			}
			waitFor(t, func() bool { return len(d.asks()) == 1 })
			time.Sleep(200 * time.Millisecond) // the sleep is running too
			if took := d.signalAndTime(sig); took > 2*time.Second {
				t.Errorf("serve took %v to exit after %v", took, sig)
			}
			for range 2 {
				select {
				case res := <-results:
					if res != nil && res["exit_code"] == float64(0) {
						t.Errorf("a cancelled line reported success: %v", res)
					}
				case <-time.After(3 * time.Second):
					t.Error("a request got no answer")
				}
			}
			recs := d.asks()
			if len(recs) != 1 || recs[0]["closed"] != "cancelled" || recs[0]["outcome"] != nil {
				t.Errorf("the waiting line's ask after shutdown: %v", recs)
			}
		})
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // a bound on failure only: conditions come late under load
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// mcpCall is a tools/call of bash as a JSON-RPC line.
func mcpCall(id int, command string) string {
	args, _ := json.Marshal(map[string]string{"command": command})
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"bash","arguments":%s}}`+"\n", id, args)
}

func startSafeMCP(t *testing.T) (*daemon, io.WriteCloser, *bufio.Reader) {
	d, stdin, stdout := startDaemon(t, "mcp", "-p", "agent")
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`+"\n")
	if _, err := stdout.ReadString('\n'); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return d, stdin, stdout
}

// G-12.3: the same deep lines through a real `gatehouse mcp` over stdio.
func TestMCPSurvivesDeepLines(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a daemon")
	}
	d, stdin, stdout := startSafeMCP(t)
	for i, line := range append(deepLines, "echo alive") {
		io.WriteString(stdin, mcpCall(10+i, line))
		reply, err := stdout.ReadString('\n')
		if err != nil {
			t.Fatalf("%.40q…: no reply: %v", line, err)
		}
		want := "nesting too deep"
		if line == "echo alive" {
			want = "alive"
		} else if strings.Contains(line, "{a,") {
			want = "brace"
		} else if strings.HasPrefix(line, "echo $((") {
			want = `exit code: 1` // the message quotes the whole expression, past the reply's cap
		}
		if !strings.Contains(reply, want) {
			t.Errorf("%.40q…: reply %.300s", line, reply)
		}
		d.alive()
	}
}

// G-12.3: SIGTERM or SIGINT ends `gatehouse mcp` within two seconds while a
// tool call runs a line that would sleep for 1000 s, and while another
// waits for a human's answer, whose ask leaves the queue as cancelled.
func TestMCPStopsWithinTwoSecondsOfASignal(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts daemons")
	}
	for _, sig := range []os.Signal{syscall.SIGTERM, syscall.SIGINT} {
		for _, line := range []string{"cat /w/a", "sleep 1000"} {
			t.Run(sig.String()+" "+line, func(t *testing.T) {
				t.Parallel()
				d, stdin, stdout := startSafeMCP(t)
				go io.Copy(io.Discard, stdout)
				io.WriteString(stdin, mcpCall(2, line))
				if line == "cat /w/a" {
					waitFor(t, func() bool { return len(d.asks()) == 1 })
				} else {
					time.Sleep(300 * time.Millisecond)
				}
				if took := d.signalAndTime(sig); took > 2*time.Second {
					t.Errorf("mcp took %v to exit after %v", took, sig)
				}
				if recs := d.asks(); line == "cat /w/a" && (len(recs) != 1 || recs[0]["closed"] != "cancelled") {
					t.Errorf("the waiting line's ask after shutdown: %v", recs)
				}
			})
		}
	}
}
