// Package pgtest starts throwaway PostgreSQL servers for tests of the
// PostgreSQL ledger: initdb into a temporary directory, postgres listening
// only on a Unix socket there, and everything removed when the server
// stops. The binaries are found on PATH or under /usr/lib/postgresql; a
// root process runs them as the user "postgres", since initdb and postgres
// refuse to run as root.
//
// Where no server can be started, tests skip with a message saying why,
// unless $GATEHOUSE_TEST_POSTGRES is "require" (CI sets it), in which case
// they fail. $GATEHOUSE_TEST_POSTGRES_URL names an existing server to use
// instead; each test then works in a schema of its own, dropped after.
package pgtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// RequireEnv, set to "require", turns a missing PostgreSQL into a test
// failure instead of a skip.
const RequireEnv = "GATEHOUSE_TEST_POSTGRES"

// URLEnv names an existing server (a postgres:// URL of a database the
// tests may create schemas in) to use instead of starting one.
const URLEnv = "GATEHOUSE_TEST_POSTGRES_URL"

// startTimeout bounds how long a fresh server may take to accept
// connections.
const startTimeout = 60 * time.Second

// Options shape a throwaway server.
type Options struct {
	// Durable keeps PostgreSQL's defaults: fsync and synchronous commits
	// on, as a production server runs. Without it the server skips both,
	// which is safe for a server whose data dies with the test.
	Durable bool
}

// Server is one PostgreSQL server a test may use: a throwaway one this
// package started, or the one $GATEHOUSE_TEST_POSTGRES_URL names.
type Server struct {
	base   *url.URL // connection URL of the database tests work in
	dir    string   // the throwaway server's directory ("" for an external one)
	cmd    *exec.Cmd
	exited chan struct{}
	log    *os.File
	opts   Options
	bin    string
	cred   *syscall.Credential

	adminMu sync.Mutex
	admin   *pgx.Conn
}

// Start starts a throwaway server, or returns the external one when
// $GATEHOUSE_TEST_POSTGRES_URL is set.
func Start(opts Options) (*Server, error) {
	if raw := os.Getenv(URLEnv); raw != "" {
		u, err := url.Parse(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", URLEnv, err)
		}
		return &Server{base: u}, nil
	}
	bin, err := findBinaries()
	if err != nil {
		return nil, err
	}
	s := &Server{bin: bin, opts: opts}
	if err := s.prepare(); err != nil {
		return nil, err
	}
	if err := s.launch(); err != nil {
		s.removeDir()
		return nil, err
	}
	return s, nil
}

// findBinaries returns the directory holding initdb and postgres: PATH
// first, then the newest /usr/lib/postgresql/N/bin.
func findBinaries() (string, error) {
	if initdb, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(initdb); err == nil {
			initdb = real
		}
		dir := filepath.Dir(initdb)
		if _, err := os.Stat(filepath.Join(dir, "postgres")); err == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
			return dir, nil
		}
	}
	return "", errors.New("PostgreSQL server binaries (initdb, postgres) not found on PATH or in /usr/lib/postgresql/*/bin; install postgresql-15 or set " + URLEnv)
}

func versionOf(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// prepare makes the server's directory (short, for the socket path's
// limit) and runs initdb into it, as "postgres" when this process is root.
func (s *Server) prepare() error {
	dir, err := os.MkdirTemp("", "ghpg-")
	if err != nil {
		return err
	}
	s.dir = dir
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			s.removeDir()
			return fmt.Errorf("running as root, and there is no user postgres to run the server as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			s.removeDir()
			return err
		}
	}
	initdb := s.command("initdb", "-D", filepath.Join(dir, "data"), "-U", "gatehouse",
		"--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C")
	var out bytes.Buffer
	initdb.Stdout, initdb.Stderr = &out, &out
	if err := initdb.Run(); err != nil {
		s.removeDir()
		return fmt.Errorf("initdb: %v\n%s", err, out.Bytes())
	}
	return nil
}

// command is one of the server's binaries, run as the server's user.
func (s *Server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	return cmd
}

// launch starts postgres on the prepared directory and waits until it
// accepts connections. The server dies with this process (Pdeathsig), so a
// test binary killed by its time-out leaves no server behind.
func (s *Server) launch() error {
	args := []string{"-D", filepath.Join(s.dir, "data"), "-k", s.dir,
		"-c", "listen_addresses=", "-c", "max_connections=400", "-c", "shared_buffers=32MB",
		"-c", "log_min_messages=warning", "-c", "log_min_error_statement=panic"}
	if !s.opts.Durable {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	logFile, err := os.OpenFile(filepath.Join(s.dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	s.log = logFile
	cmd := s.command("postgres", args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr.Pdeathsig = syscall.SIGQUIT
	if err := cmd.Start(); err != nil {
		return err
	}
	s.cmd = cmd
	s.exited = make(chan struct{})
	go func() { cmd.Wait(); close(s.exited) }()
	s.base = &url.URL{Scheme: "postgres", User: url.User("gatehouse"), Path: "/postgres",
		RawQuery: url.Values{"host": {s.dir}}.Encode()}

	deadline := time.Now().Add(startTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, s.base.String())
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case <-s.exited:
			return fmt.Errorf("postgres exited at start:\n%s", s.logTail())
		default:
		}
		if time.Now().After(deadline) {
			s.kill()
			return fmt.Errorf("postgres did not accept connections within %v: %v\n%s", startTimeout, err, s.logTail())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *Server) logTail() string {
	data, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
	if len(data) > 4000 {
		data = data[len(data)-4000:]
	}
	return string(data)
}

// kill stops the server at once (SIGQUIT: no checkpoint, which a throwaway
// server does not need) and waits for it.
func (s *Server) kill() { s.shutdown(syscall.SIGQUIT) }

// shutdown stops the server with sig (SIGINT: a fast shutdown that ends
// every connection and keeps every commit; SIGQUIT: at once) and waits.
func (s *Server) shutdown(sig syscall.Signal) {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(sig)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
	s.cmd = nil
}

func (s *Server) removeDir() {
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

// Stop stops a throwaway server and removes its directory; an external
// server is left as it is.
func (s *Server) Stop() {
	s.adminMu.Lock()
	if s.admin != nil {
		s.admin.Close(context.Background())
		s.admin = nil
	}
	s.adminMu.Unlock()
	if s.dir == "" {
		return
	}
	s.kill()
	if s.log != nil {
		s.log.Close()
	}
	s.removeDir()
}

// Restart stops a throwaway server (a fast shutdown: every connection is
// ended, every commit kept, even those a server without synchronous
// commits had not yet flushed) and starts it again on the same data, for
// tests of what a dropped connection costs. An external server cannot be
// restarted.
func (s *Server) Restart() error {
	if s.dir == "" {
		return errors.New("an external server is not restarted by tests")
	}
	s.adminMu.Lock()
	if s.admin != nil {
		s.admin.Close(context.Background())
		s.admin = nil
	}
	s.adminMu.Unlock()
	s.shutdown(syscall.SIGINT)
	return s.launch()
}

// Throwaway reports whether this package started the server (and may
// restart it).
func (s *Server) Throwaway() bool { return s.dir != "" }

// URL is the server's connection URL, with extra query parameters.
func (s *Server) URL(params url.Values) string {
	u := *s.base
	q := u.Query()
	for k, vs := range params {
		q[k] = vs
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// Exec runs SQL on the server as the tests' administrator (the superuser
// of a throwaway server).
func (s *Server) Exec(ctx context.Context, sql string, args ...any) error {
	s.adminMu.Lock()
	defer s.adminMu.Unlock()
	if s.admin == nil || s.admin.IsClosed() {
		conn, err := pgx.Connect(ctx, s.base.String())
		if err != nil {
			return err
		}
		s.admin = conn
	}
	_, err := s.admin.Exec(ctx, sql, args...)
	if err != nil && s.admin.IsClosed() {
		s.admin = nil
	}
	return err
}

// Schema makes a fresh, empty schema for one test and returns the URL of
// a ledger in it (search_path names it). On an external server the schema
// is dropped when the test ends; a throwaway server's go with it.
func (s *Server) Schema(tb testing.TB) string {
	tb.Helper()
	var b [6]byte
	rand.Read(b[:])
	name := "t_" + hex.EncodeToString(b[:])
	if err := s.Exec(context.Background(), "CREATE SCHEMA "+name); err != nil {
		tb.Fatalf("create schema: %v", err)
	}
	if s.dir == "" {
		tb.Cleanup(func() { s.Exec(context.Background(), "DROP SCHEMA "+name+" CASCADE") })
	}
	return s.URL(url.Values{"search_path": {name}})
}

// DropConnections ends every other client's connection to a throwaway
// server (pg_terminate_backend), as a network failure or a database
// restart would. On an external server, whose other clients are not the
// tests', it ends nothing and says so; callers skip.
func (s *Server) DropConnections(ctx context.Context) error {
	if s.dir == "" {
		return errors.New("connections to an external server are not dropped by tests")
	}
	return s.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`)
}

var shared struct {
	once sync.Once
	srv  *Server
	err  error
}

// Shared returns the test binary's one server, starting it on first use.
// Where none can be started the test is skipped, or failed when
// $GATEHOUSE_TEST_POSTGRES is "require". Call StopShared from TestMain
// after the tests ran.
func Shared(tb testing.TB) *Server {
	tb.Helper()
	shared.once.Do(func() { shared.srv, shared.err = Start(Options{}) })
	if shared.err != nil {
		Unavailable(tb, shared.err)
	}
	return shared.srv
}

// Unavailable ends a test that needs PostgreSQL and cannot have it: a skip
// saying why, or a failure when $GATEHOUSE_TEST_POSTGRES is "require".
func Unavailable(tb testing.TB, err error) {
	tb.Helper()
	msg := strings.TrimSpace(err.Error())
	if os.Getenv(RequireEnv) == "require" {
		tb.Fatalf("PostgreSQL is required (%s=require) but cannot be used: %s", RequireEnv, msg)
	}
	tb.Skipf("no PostgreSQL for this test (%s=require makes this a failure): %s", RequireEnv, msg)
}

// StopShared stops the shared server, if one was started.
func StopShared() {
	if shared.srv != nil {
		shared.srv.Stop()
	}
}
