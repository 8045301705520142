package page

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// FitWorkerEnv and FitWasmEnv name the site's environment variables holding
// the addresses of web/fitworker.js and web/fit.wasm (with their versions:
// site.go sets them).
const (
	FitWorkerEnv = "OMISSION_FIT_WORKER_JS"
	FitWasmEnv   = "OMISSION_FIT_WASM"
)

// fitState is one file's fit: asked (Busy), answered (Panel) or failed.
type fitState struct {
	Name, Busy, Err, Query string
	ID                     int64
	Panel                  app.Value // the answer's panel (a fitmsg.Node), parsed by page.js
	_                      []byte    // not comparable: no equality code
}

// setFit keeps a file's fit state, in a new slice (the panel sees a change).
func (p *Page) setFit(f fitState) {
	p.beside.forgetFitOnly(f.Name)
	p.beside.fits = append(p.beside.fits, f)
}

// forgetFit drops what the page holds of a file gone.
func (b *beside) forgetFit(name string) {
	delete(b.raw, name)
	b.forgetFitOnly(name)
}

// forgetFitOnly drops a file's fit (a new file of its name came).
func (b *beside) forgetFitOnly(name string) {
	out := make([]fitState, 0, len(b.fits)+1)
	for _, g := range b.fits {
		if g.Name != name {
			out = append(out, g)
		}
	}
	b.fits = out
}
