package page

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// FitWorkerEnv and FitWasmEnv name the site's environment variables holding
// the addresses of web/fitworker.js and web/fit.wasm (with their versions:
// app/site/site.go sets them).
const (
	FitWorkerEnv = "OMISSION_FIT_WORKER_JS"
	FitWasmEnv   = "OMISSION_FIT_WASM"
)

// setFit keeps what page.js last said of a file's fit (a fitmsg.Answer,
// parsed: its panel, progress or a failure laid out as nodes), or drops it
// (nil: the file is gone, or a new one of its name came), in a new map so
// that the panel sees a change.
func (b *beside) setFit(name string, a app.Value) {
	m := map[string]app.Value{name: a}
	for k, v := range b.fits {
		if k != name {
			m[k] = v
		}
	}
	b.fits = m
}
