package goja

// gatehouse patch (see PATCHES.md): the execution-time profiler is left out of
// this copy so that github.com/google/pprof, whose package initialisation
// compiles regular expressions and builds tables in every process that links
// goja, is not linked. What remains is what vm.go refers to; the profiler is
// never enabled, so vm.run never takes the profiling path.

import (
	"errors"
	"io"
	"time"
)

const profMaxStackDepth = 64

const (
	profReqNone int32 = iota
	profReqDoSample
	profReqSampleReady
	profReqStop
)

type _globalProfiler struct {
	p profiler

	enabled int32
}

var globalProfiler _globalProfiler

type profTracker struct {
	req, finished int32
	start, stop   time.Time
	numFrames     int
	frames        [profMaxStackDepth]StackFrame
}

type profiler struct{}

// registerVm hands out a tracker that is already stopped: there is no
// profiler to sample it.
func (p *profiler) registerVm() *profTracker {
	return &profTracker{req: profReqStop}
}

// errNoProfiler is what StartProfile returns in this copy.
var errNoProfiler = errors.New("goja: execution profiling is not built into this copy")

// StartProfile would start the execution-time profiler; this copy of goja has
// none and always returns an error.
func StartProfile(w io.Writer) error {
	return errNoProfiler
}

// StopProfile does nothing: StartProfile never starts a profile in this copy.
func StopProfile() {}
