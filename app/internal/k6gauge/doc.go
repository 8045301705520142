// Package k6gauge rewrites the vus gauge of k6's per-request output, for
// the tests that hold what the gauge tells of a run's executor
// (app/tools/k6executor.go) to files shaped as another executor's.
//
// It may import no package of the project.
package k6gauge
