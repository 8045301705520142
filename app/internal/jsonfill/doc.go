// Package jsonfill fills a value's every exported field that JSON carries
// with a value of its own, for the tests that hold a hand-written JSON
// reader (app/jsonread's users) to encoding/json: a field the reader
// forgets then differs.
//
// It may import no package of the project.
package jsonfill
