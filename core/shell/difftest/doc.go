// Package difftest holds gatehouse's differential tests (G-12.2):
// every case in testdata/cases runs in a gatehouse workspace and is compared
// with what real bash and GNU tools printed for the same line and files,
// recorded once in testdata/fixtures. See testdata/README.md.
//
// The package has no code of its own; everything lives in its tests.
package difftest
