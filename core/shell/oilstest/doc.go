// Package oilstest measures gatehouse's shell language against the Oils
// project's spec tests (the `spec/*.test.sh` files of oils-for-unix/oils),
// the most complete public bash conformance suite: every case is a script
// with bash's expected stdout, stderr and exit status.
//
// The suite is not part of this repository. TestOils reads it from the
// directory $OILS_SPEC_DIR and skips without it; see README.md for how to
// export it. Each case runs twice, in real bash (to learn which cases bash
// itself passes) and in a fresh gatehouse session, and the test prints a
// per-file table of the cases gatehouse passes among those bash passes.
// testdata/baseline.txt names the cases expected to pass, so a regression
// fails the test.
//
// The package has no code of its own; everything lives in its tests.
package oilstest
