// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
)

// jobsFinished numbers background jobs as they end, so that wait -n
// reports the one that ended first among those that already have.
var jobsFinished atomic.Int64

// waitNext is wait -n [-p VAR] [ID…]: it waits for the next of the jobs in
// the table (those named, or all of them) to end and returns its status,
// 127 when there is none; -p VAR receives its pid (patch 93).
func (r *Runner) waitNext(ctx context.Context, ids []string, pidVar string) exitStatus {
	var exit exitStatus
	var cands []bgProc
	for _, id := range ids {
		var bg bgProc
		var ok bool
		if strings.HasPrefix(id, "%") {
			var msg string
			bg, msg = r.findJob(id)
			ok = msg == ""
		} else {
			bg, ok = r.bgProcByID(id)
		}
		if !ok || bg.job != nil && bg.job.reaped.Load() {
			// A job that has ended is no longer in bash's table.
			r.errf("bash: wait: %s: no such job\n", strings.TrimPrefix(id, "g"))
			exit.code = 127
			return exit
		}
		cands = append(cands, bg)
	}
	if len(ids) == 0 {
		cands = r.tableJobs()
	}
	if len(cands) == 0 {
		exit.code = 127
		return exit
	}
	bg, ok := r.nextToEnd(ctx, cands)
	if !ok {
		exit.code = 128 + 2 // the line was stopped
		return exit
	}
	if bg.job != nil {
		bg.job.reaped.Store(true) // reported: gone from the table
	}
	if pidVar != "" {
		pid := strconv.Itoa(bg.pid)
		if bg.pid == 0 {
			pid = ""
		}
		r.setVarString(pidVar, pid)
	}
	return *bg.exit
}

// nextToEnd waits for one of cands to end and returns the one that ended
// first; ok is false when ctx ended first.
func (r *Runner) nextToEnd(ctx context.Context, cands []bgProc) (bgProc, bool) {
	if bg, ok := firstEnded(cands); ok {
		return bg, true
	}
	cases := make([]reflect.SelectCase, 0, len(cands)+1)
	for _, bg := range cands {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(bg.done)})
	}
	cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())})
	if chosen, _, _ := reflect.Select(cases); chosen == len(cands) {
		return bgProc{}, false
	}
	return firstEnded(cands)
}

// firstEnded returns the job among cands that ended first, if any has.
func firstEnded(cands []bgProc) (bgProc, bool) {
	var first bgProc
	var firstSeq int64
	for _, bg := range cands {
		select {
		case <-bg.done:
			seq := int64(0)
			if bg.endSeq != nil {
				seq = bg.endSeq.Load()
			}
			if first.done == nil || seq < firstSeq {
				first, firstSeq = bg, seq
			}
		default:
		}
	}
	return first, first.done != nil
}
