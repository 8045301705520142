// Package simtest is for tests only: the helpers and random generators
// that sim's own tests (its external test package, sim_test) and its
// subpackages' tests share, so that each is written once. A test of sim
// in package sim cannot import it (simtest imports sim); such a test moves
// to package sim_test, with sim's export_test.go lending it what it needs
// of sim's unexported code.
//
// It runs queries (Run, Parse) and configurations on one path whatever
// path sim.Run would take (RunEngine, RunLongPath, RunWalkPath), gives
// sim's random streams (Stream), and draws configurations (RandomAny,
// RandomLongConfig) and the queries of the random runs with retries
// (RetryQuery). The hooks it reads (sim/internal/hook's RunOn and Stream)
// are set by sim's hooks_tests.go, which a build with the tag minimal
// (app.wasm) leaves out: only tests import simtest, and no package's door
// in app/doors_test.go names it.
//
// It may import sim and sim/internal/hook only.
package simtest
