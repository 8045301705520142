package main

import (
	"os/exec"
	"strings"
	"testing"
)

// binaries are the programs the site ships, each with the packages it must
// not link (go list -deps, as make wasm builds it) and why. The page's own
// program, app.wasm, is also its simulation worker and links the
// simulator, the charts and the tools; the fit links neither the page nor
// the charts. (A simulation worker of its own, compute.wasm, made a shared
// address slower to answer while app.wasm still links the simulator:
// issue 42's note.)
var binaries = []struct {
	name, pkg, tags string
	never           map[string]string // package → why it must stay out
}{
	{"app.wasm", "./app", "minimal", map[string]string{
		"omission/app/fit":        "the fit is fit.wasm's, fetched when the reader asks",
		"omission/app/experiment": "the real experiment runs natively",
		"omission/app/cli":        "the command line is native",
	}},
	{"fit.wasm", "./app/internal/fitwasm", "", map[string]string{
		"github.com/maxence-charriere/go-app/v10/pkg/app": "the fit renders no component: the page lays out its panel",
		"gonum.org/v1/plot":    "the fit draws no chart",
		"omission/app/charts":  "the fit draws no chart",
		"omission/app/compute": "the fit runs the model through app/fit",
		"omission/app/worker":  "the simulation worker is app.wasm's",
		"omission/app/ui":      "the components are the page's",
	}},
}

// TestBinariesLink holds each program the site ships to the packages it
// must not link: a heavy package that leaks into a binary fails here, with
// the binary, the package and why it stays out.
func TestBinariesLink(t *testing.T) {
	for _, b := range binaries {
		args := []string{"list", "-deps"}
		if b.tags != "" {
			args = append(args, "-tags", b.tags)
		}
		cmd := exec.Command("go", append(args, b.pkg)...)
		cmd.Dir = ".."
		cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: go list: %v", b.name, err)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 10 {
			t.Fatalf("%s: go list -deps %s names %d packages", b.name, b.pkg, len(deps))
		}
		for _, d := range deps {
			if why, ok := b.never[d]; ok {
				t.Errorf("%s links %s: %s", b.name, d, why)
			}
		}
	}
}
