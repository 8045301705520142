// Package hook is how sim lends its subpackages (sim/sweep, sim/profile)
// the few unexported pieces of the model they build on, without exporting
// them from sim: each is a variable here that sim sets in its init (sim's
// hooks.go) and a subpackage reads once, at its own initialisation, after
// sim's.
//
// hook cannot name sim's types (sim imports it), so each variable is an
// any that holds one func of the type its comment gives; the subpackage
// asserts that type once (a mismatch panics when the subpackage is
// initialised, in every test). Only sim sets them; only sim's subpackages
// read them.
//
// It may import no package of the project.
package hook
