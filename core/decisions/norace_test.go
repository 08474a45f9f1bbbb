//go:build !race

package decisions_test

// raceDetector is true when the tests run under -race, where timings say
// nothing about the code: figures are logged, not asserted.
const raceDetector = false
