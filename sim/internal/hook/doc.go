// Package hook is how sim lends its subpackages (sim/sweep, sim/profile,
// sim/window) the unexported pieces of the model they build on, without
// exporting them from sim: each is a variable here that sim sets in its
// init (sim's hooks.go) and a subpackage reads once, at its own
// initialisation, after sim's.
//
// hook cannot name sim's types (sim imports it). A hook whose func takes
// or gives one is an any that holds a func of the type its comment gives,
// which the subpackage asserts once (a mismatch panics when the subpackage
// is initialised, in every test), or a func that takes the sim value as an
// any (Long, PacedPlans); the others are funcs of their own type. Only sim
// sets them; only sim's subpackages, their tests and sim/internal/simtest
// (the tests' shared helpers) read them. The hooks only tests read are set
// by sim's hooks_tests.go, which app.wasm (built with the tag minimal)
// leaves out.
//
// It may import no package of the project.
package hook
