package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"gatehouse/core"
)

// benchLine is one comparison line as each system spells it. gatehouse and
// just-bash see the tree as mounts at /tree, /logs and /data and start in
// /data; GNU bash runs in the host directory that stands for the same spot.
type benchLine struct {
	text   string // as typed in gatehouse and just-bash
	gnu    string // the same line over the host tree
	gnuDir string // GNU's working directory, relative to the tree root
	// normal turns an output into what the three must agree on (paths are
	// spelled from different roots).
	normal func(string) string
}

var benchLines = []benchLine{
	{
		text: "find / -type f | xargs grep -l TODO | wc -l",
		gnu:  "find . -type f | xargs grep -l TODO | wc -l", gnuDir: ".",
		normal: strings.TrimSpace,
	},
	{
		text: "cat big.log | sort | uniq -c | sort -rn | head",
		gnu:  "cat big.log | sort | uniq -c | sort -rn | head", gnuDir: "data",
		normal: func(s string) string {
			var rows []string
			for _, row := range strings.Split(strings.TrimSpace(s), "\n") {
				rows = append(rows, strings.Join(strings.Fields(row), " "))
			}
			return strings.Join(rows, "\n")
		},
	},
	{
		text: "grep -r ERROR /logs | cut -d: -f1 | sort -u",
		gnu:  "grep -r ERROR logs | cut -d: -f1 | sort -u", gnuDir: ".",
		normal: func(s string) string {
			var rows []string
			for _, row := range strings.Split(strings.TrimSpace(s), "\n") {
				rows = append(rows, strings.TrimPrefix(row, "/"))
			}
			return strings.Join(rows, "\n")
		},
	},
}

// runner runs one line and says how long it took (wall clock, and the CPU
// time it used, which the load of other processes disturbs far less) and
// what it printed.
type runner interface {
	run(l benchLine) (sample, error)
}

// gatehouseRunner runs lines in one session of the in-process workspace.
type gatehouseRunner struct {
	session *core.Session
	system  string // labels the run's CPU samples in -cpuprofile (pprof -tagfocus system=NAME)
}

func (g gatehouseRunner) run(l benchLine) (sample, error) {
	// Each run starts from a collected heap, as each GNU run starts from a
	// fresh process: no run pays for the garbage of the one before.
	runtime.GC()
	cpu0 := processCPU()
	start := time.Now()
	var res core.Result
	pprof.Do(context.Background(), pprof.Labels("system", g.system), func(ctx context.Context) {
		res = g.session.Execute(ctx, l.text)
	})
	s := sample{wall: time.Since(start), cpu: processCPU() - cpu0, out: res.Stdout}
	// A pipeline's status is its last command's: a failing cat upstream
	// shows only on stderr, and must not pass for a fast run.
	if res.ExitCode != 0 || res.Stderr != "" {
		return s, fmt.Errorf("exit %d: %s", res.ExitCode, firstLine(res.Stderr))
	}
	return s, nil
}

// processCPU is the user and system time this process has used, GC and
// every goroutine included (nothing else runs in it during a line).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// gnuRunner runs lines with the host's bash and coreutils over the tree on
// tmpfs. LC_ALL=C makes sort compare bytes, as gatehouse's sort does.
type gnuRunner struct{ root string }

func (g gnuRunner) run(l benchLine) (sample, error) {
	cmd := exec.Command("bash", "-c", l.gnu)
	cmd.Dir = filepath.Join(g.root, l.gnuDir)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	s := sample{wall: time.Since(start), out: out.String()}
	if cmd.ProcessState != nil {
		// bash waits for every process of the pipeline, so its rusage
		// includes theirs.
		s.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if err != nil || errOut.Len() > 0 {
		return s, fmt.Errorf("%v: %s", err, firstLine(errOut.String()))
	}
	return s, nil
}

// justBashRunner talks to bench/justbash.mjs, which keeps the tree loaded
// between runs and times each exec inside node.
type justBashRunner struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	files int
}

type justBashReply struct {
	Ready  bool    `json:"ready"`
	Files  int     `json:"files"`
	Ms     float64 `json:"ms"`
	CPUMs  float64 `json:"cpu_ms"`
	Stdout string  `json:"stdout"`
	Stderr string  `json:"stderr"`
	Exit   int     `json:"exit"`
}

func startJustBash(driver, module, root string) (*justBashRunner, error) {
	cmd := exec.Command("node", "--max-old-space-size=8192", driver, module, root)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	j := &justBashRunner{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	ready, err := j.reply()
	if err != nil || !ready.Ready {
		j.stop()
		return nil, fmt.Errorf("just-bash did not start: %v", err)
	}
	j.files = ready.Files
	return j, nil
}

func (j *justBashRunner) reply() (justBashReply, error) {
	text, err := j.out.ReadString('\n')
	if err != nil {
		return justBashReply{}, err
	}
	var r justBashReply
	return r, json.Unmarshal([]byte(text), &r)
}

func (j *justBashRunner) run(l benchLine) (sample, error) {
	req, _ := json.Marshal(map[string]string{"line": l.text, "cwd": "/data"})
	if _, err := j.in.Write(append(req, '\n')); err != nil {
		return sample{}, err
	}
	r, err := j.reply()
	if err != nil {
		return sample{}, err
	}
	s := sample{
		wall: time.Duration(r.Ms * float64(time.Millisecond)),
		cpu:  time.Duration(r.CPUMs * float64(time.Millisecond)),
		out:  r.Stdout,
	}
	if r.Exit != 0 || r.Stderr != "" {
		return s, fmt.Errorf("exit %d: %s", r.Exit, firstLine(r.Stderr))
	}
	return s, nil
}

func (j *justBashRunner) stop() {
	j.in.Close()
	j.cmd.Wait()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
