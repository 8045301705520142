//go:build minimal

package tools

// The page's app.wasm reads a k6 CSV's durations only: it shows the
// file's distribution, and the fit, which places the stalls by the times,
// runs in fit.wasm, which reads them (k6time.go). Reading them here too
// would pass app.wasm's gzip budget.

// k6ReadsTimes: this build reads no timestamp.
const k6ReadsTimes = false

// k6Time, in the page's build, reads no time.
func k6Time(string) (ns, unit int64, err error) { return 0, 1e9, nil }
