//go:build !race

package core

// raceDetector is true under -race: suites that check the tests' own
// judges rather than concurrency skip themselves there, where they cost
// several times as much.
const raceDetector = false
